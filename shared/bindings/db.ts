/**
 * The `DB` binding: a libSQL `Client` from `@libsql/client` (`libsql://`, `https://`, `ws(s)://`
 * or a local `file:`), and a versioned, idempotent migration runner over it.
 */
import { type Client, createClient, type InStatement } from "@libsql/client";
import { ConfigError, type Env } from "../contract/config.ts";

/** Where the database lives. */
export interface DbConfig {
  /** `DB_URL`: `file:<path>`, `:memory:`, `libsql://`, `https://`, `http://`, `wss://`, `ws://`. */
  url: string;
  /** `DB_AUTH_TOKEN` (remote databases). */
  authToken?: string;
}

const DB_SCHEMES = ["file:", "libsql:", "https:", "http:", "wss:", "ws:"] as const;

/** How long a local write waits for another connection's lock before failing (ms). */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * `DB_URL` and `DB_AUTH_TOKEN`; without `DB_URL`, `file:<DATA_DIR>/<defaultFile>` (DATA_DIR
 * defaults to `.data`). Throws ConfigError for a malformed URL or scheme.
 */
export function dbConfigFromEnv(env: Env, defaultFile: string): DbConfig {
  const authToken = env.string("DB_AUTH_TOKEN");
  const raw = env.string("DB_URL");
  if (raw === undefined) {
    const dir = env.string("DATA_DIR", ".data").replace(/\/+$/, "");
    return { url: `file:${dir}/${defaultFile}`, authToken };
  }
  if (raw === ":memory:") return { url: raw, authToken };
  let scheme: string;
  try {
    scheme = new URL(raw).protocol;
  } catch {
    throw new ConfigError(
      `DB_URL must be a libSQL URL (file:, libsql:, https:...), got "${
        raw.slice(0, 80).replace(/\/\/[^@/]*@/, "//***@")
      }"`,
    );
  }
  if (!(DB_SCHEMES as readonly string[]).includes(scheme)) {
    throw new ConfigError(`DB_URL must use one of ${DB_SCHEMES.join(" ")}, got ${scheme}`);
  }
  return { url: raw, authToken };
}

/** The local path of a `file:` URL, or null for any other URL. */
export function filePathOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const rest = url.slice("file:".length).split("?")[0];
  // `file:///abs/path` and `file:relative/path` are both accepted by libSQL.
  return rest.startsWith("//") ? decodeURIComponent(rest.replace(/^\/\/[^/]*/, "")) : rest;
}

/**
 * Opens the client. For a local file, its folder is created first and the database is put
 * in WAL mode (readers never wait for the writer; commits need no full fsync each).
 * A URL the client refuses is a ConfigError naming `DB_URL`.
 */
export async function openDb(config: DbConfig): Promise<Client> {
  const path = filePathOf(config.url);
  if (path) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  let db: Client;
  try {
    db = createClient({
      url: config.url,
      authToken: config.authToken,
      intMode: "number",
      timeout: BUSY_TIMEOUT_MS,
    });
  } catch (err) {
    throw new ConfigError(`DB_URL is not usable: ${err instanceof Error ? err.message : err}`);
  }
  if (path) {
    await db.execute("PRAGMA journal_mode = WAL");
    await db.execute("PRAGMA synchronous = NORMAL");
  }
  return db;
}

/** One schema step. Versions are positive integers applied in increasing order, once each. */
export interface Migration {
  version: number;
  /** A short name, recorded with the version. */
  name: string;
  statements: InStatement[];
}

/**
 * Applies the migrations not yet recorded in `schema_migrations`, each in one write
 * transaction together with its record, so a crash never leaves a half-applied version and
 * two processes starting at once apply each version once (the second sees it recorded).
 * Returns the versions applied by this call (none when the schema is current).
 */
export async function migrate(db: Client, migrations: readonly Migration[]): Promise<number[]> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (const [i, m] of sorted.entries()) {
    if (!Number.isInteger(m.version) || m.version < 1 || sorted[i - 1]?.version === m.version) {
      throw new Error(`migration versions must be distinct positive integers (${m.version})`);
    }
  }
  await db.execute(
    `CREATE TABLE IF NOT EXISTS schema_migrations (
      version INTEGER PRIMARY KEY,
      name TEXT NOT NULL,
      applied_at TEXT NOT NULL
    )`,
  );
  const applied: number[] = [];
  for (const m of sorted) {
    const tx = await db.transaction("write");
    try {
      const done = await tx.execute({
        sql: "SELECT 1 FROM schema_migrations WHERE version = ?",
        args: [m.version],
      });
      if (done.rows.length > 0) {
        await tx.rollback();
        continue;
      }
      for (const stmt of m.statements) await tx.execute(stmt);
      await tx.execute({
        sql: "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
        args: [m.version, m.name, new Date().toISOString()],
      });
      await tx.commit();
      applied.push(m.version);
    } finally {
      tx.close();
    }
  }
  return applied;
}

/** The versions recorded in `schema_migrations`, ascending. */
export async function appliedVersions(db: Client): Promise<number[]> {
  const rs = await db.execute("SELECT version FROM schema_migrations ORDER BY version");
  return rs.rows.map((r) => Number(r.version));
}
