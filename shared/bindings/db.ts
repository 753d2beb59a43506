/**
 * The `DB` binding: libSQL. Remote databases (`libsql://`, `https://`, `http://`, `wss://`,
 * `ws://`) go through `@libsql/client/web` (fetch/WebSocket only, so it runs at the edge);
 * the native client, which loads the libsql addon, is imported only for a local `file:` (or
 * `:memory:`) database. Either is imported when the database is first opened, not at start-up
 * (bench/bundle_cold_start.ts); the URL is checked at start-up all the same. {@link Db} opens
 * and migrates the database on first use, once (one in-flight attempt shared by concurrent
 * callers, retried after a failure), and puts a deadline on every call: a database that is
 * down, at start-up included, fails the calls that need it and never the process.
 */
import type { Client, InStatement, ResultSet, TransactionMode } from "@libsql/client/web";
import { expandConfig } from "@libsql/core/config";
import { ConfigError, type Env, NotConfiguredError } from "../contract/config.ts";
import { withDeadline } from "./deadline.ts";

/** Where the database lives and how long a call may take. */
export interface DbConfig {
  /** `DB_URL`: `file:<path>`, `:memory:`, `libsql://`, `https://`, `http://`, `wss://`, `ws://`. */
  url: string;
  /** `DB_AUTH_TOKEN` (remote databases). */
  authToken?: string;
  /** `DB_TIMEOUT_MS`: deadline of one call (default {@link DEFAULT_DB_TIMEOUT_MS}). */
  timeoutMs?: number;
  /**
   * Set when there is no database to open (a deployment without `DB_URL`): every call rejects
   * with a {@link NotConfiguredError} carrying this message, and nothing is opened or written.
   */
  missing?: string;
}

/** What a deployment without `DB_URL` answers (the variables to set, no value). */
export const DB_NOT_CONFIGURED =
  "No database configured: set DB_URL (a libSQL URL such as libsql://<db>.turso.io, with " +
  "DB_AUTH_TOKEN) or DB_URL=file:<path> to keep the data on this instance's own disk";

const DB_SCHEMES = ["file:", "libsql:", "https:", "http:", "wss:", "ws:"] as const;

/** Default deadline of one database call (ms). */
export const DEFAULT_DB_TIMEOUT_MS = 5_000;

/** How long a local write waits for another connection's lock before failing (ms). */
const BUSY_TIMEOUT_MS = 5_000;

/**
 * `DB_URL`, `DB_AUTH_TOKEN` and `DB_TIMEOUT_MS`; without `DB_URL`,
 * `file:<DATA_DIR>/<defaultFile>` (DATA_DIR defaults to `.data`), except in a deployment
 * bundle (`env.deployment`), where an instance's disk is temporary: there the config is
 * {@link DbConfig.missing} and every call fails naming `DB_URL`. Throws ConfigError for a
 * malformed URL, scheme or timeout.
 */
export function dbConfigFromEnv(env: Env, defaultFile: string): DbConfig {
  const authToken = env.string("DB_AUTH_TOKEN");
  const timeoutMs = env.int("DB_TIMEOUT_MS", DEFAULT_DB_TIMEOUT_MS, 50, 120_000);
  const raw = env.string("DB_URL");
  if (raw === undefined && env.deployment) {
    return { url: "", authToken, timeoutMs, missing: DB_NOT_CONFIGURED };
  }
  if (raw === undefined) {
    const dir = env.string("DATA_DIR", ".data").replace(/\/+$/, "");
    return { url: `file:${dir}/${defaultFile}`, authToken, timeoutMs };
  }
  if (raw === ":memory:") return { url: raw, authToken, timeoutMs };
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
  return { url: raw, authToken, timeoutMs };
}

/** The local path of a `file:` URL, or null for any other URL. */
export function filePathOf(url: string): string | null {
  if (!url.startsWith("file:")) return null;
  const rest = url.slice("file:".length).split("?")[0];
  // `file:///abs/path` and `file:relative/path` are both accepted by libSQL.
  return rest.startsWith("//") ? decodeURIComponent(rest.replace(/^\/\/[^/]*/, "")) : rest;
}

/** True for a database reached over the network (the web client serves it). */
export function isRemoteUrl(url: string): boolean {
  return !url.startsWith("file:") && url !== ":memory:";
}

/**
 * Refuses what the web client would refuse when it is built, without loading it: libSQL's own
 * reading of the URL (`expandConfig`: scheme, query parameters, fragment), and the one check the
 * client adds, TLS against the scheme (`https:`/`wss:` with `?tls=0`, `http:`/`ws:` with
 * `?tls=1`). A ConfigError naming `DB_URL`.
 */
export function checkRemoteUrl(config: DbConfig): void {
  let expanded;
  try {
    expanded = expandConfig({ url: config.url, authToken: config.authToken }, true);
  } catch (err) {
    const message = err instanceof Error ? err.message : String(err);
    // Its message may quote the URL: never its credentials.
    throw new ConfigError(`DB_URL is not usable: ${message.replace(/\/\/[^@/]*@/g, "//***@")}`);
  }
  const { scheme, tls } = expanded;
  if (tls !== (scheme === "https" || scheme === "wss")) {
    throw new ConfigError(
      `DB_URL is not usable: a "${scheme}:" URL cannot ${tls ? "opt into" : "opt out of"} TLS`,
    );
  }
}

/**
 * The web client of a remote database, imported on this first call. Makes no request over
 * HTTP (a WebSocket URL starts connecting, and reconnects by itself). Every HTTP request it
 * sends is aborted after `timeoutMs`. A URL the client refuses is a ConfigError naming `DB_URL`.
 */
export async function openRemoteDb(config: DbConfig): Promise<Client> {
  const timeoutMs = config.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS;
  const { createClient } = await import("@libsql/client/web");
  try {
    return createClient({
      url: config.url,
      authToken: config.authToken,
      intMode: "number",
      fetch: (input: Request | string | URL, init?: RequestInit) =>
        fetch(input, { ...init, signal: AbortSignal.timeout(timeoutMs) }),
    });
  } catch (err) {
    throw new ConfigError(`DB_URL is not usable: ${err instanceof Error ? err.message : err}`);
  }
}

/**
 * Opens the client: the web client for a remote URL; for a local file the native client
 * (imported here, on first use, so that remote deployments never load the addon), after
 * creating the file's folder, in WAL mode (readers never wait for the writer; commits need
 * no full fsync each). Fails (rejects) when the file cannot be opened or is not a database.
 */
export async function openDb(config: DbConfig): Promise<Client> {
  if (isRemoteUrl(config.url)) return openRemoteDb(config);
  const path = filePathOf(config.url);
  if (path) {
    const dir = path.includes("/") ? path.slice(0, path.lastIndexOf("/")) : "";
    if (dir) await Deno.mkdir(dir, { recursive: true });
  }
  const { createClient } = await import("@libsql/client/sqlite3");
  const db = createClient({
    url: config.url,
    authToken: config.authToken,
    intMode: "number",
    timeout: BUSY_TIMEOUT_MS,
  });
  if (path) {
    try {
      await db.execute("PRAGMA journal_mode = WAL");
      await db.execute("PRAGMA synchronous = NORMAL");
    } catch (err) {
      db.close();
      throw err;
    }
  }
  return db;
}

/** Imports the client {@link openDb} will use (cached: openDb's own import is then instant). */
async function loadClientModule(config: DbConfig): Promise<void> {
  if (isRemoteUrl(config.url)) await import("@libsql/client/web");
  else await import("@libsql/client/sqlite3");
}

/**
 * A libSQL database opened and migrated on first use. Concurrent first callers share one
 * attempt; a failed attempt (database down, file corrupt) is forgotten, so the next call
 * tries again. Every call has the deadline `timeoutMs`.
 */
export class Db {
  readonly #config: DbConfig;
  readonly #migrations: readonly Migration[];
  readonly #timeoutMs: number;
  #client: Client | undefined;
  #ready: Promise<Client> | undefined;
  #closed = false;

  /** `client` is an already built client; without it {@link openDb} builds one on first use. */
  constructor(config: DbConfig, migrations: readonly Migration[] = [], client?: Client) {
    this.#config = config;
    this.#migrations = migrations;
    this.#timeoutMs = config.timeoutMs ?? DEFAULT_DB_TIMEOUT_MS;
    this.#client = client;
  }

  /** Deadline of one call (ms). */
  get timeoutMs(): number {
    return this.#timeoutMs;
  }

  /** The client, opened and migrated (once; retried after a failure). */
  client(): Promise<Client> {
    if (this.#config.missing) return Promise.reject(new NotConfiguredError(this.#config.missing));
    if (this.#closed) return Promise.reject(new Error("database closed"));
    if (this.#ready) return this.#ready;
    const attempt = this.#open();
    this.#ready = attempt;
    attempt.catch(() => {
      if (this.#ready === attempt) this.#ready = undefined;
    });
    return attempt;
  }

  async #open(): Promise<Client> {
    const owned = this.#client === undefined;
    // Loading the client's code is not the database being slow (a cold instance on a busy
    // machine can take seconds): it stays outside the deadline, as the cache's does.
    if (owned) await loadClientModule(this.#config);
    // Migrations take a few round trips: give the whole opening a few call deadlines.
    const client = this.#client ??
      await withDeadline(openDb(this.#config), this.#timeoutMs, "libSQL open");
    try {
      await withDeadline(migrate(client, this.#migrations), 3 * this.#timeoutMs, "libSQL migrate");
    } catch (err) {
      // A local file that failed (corrupt, locked) is reopened by the next attempt.
      if (owned) client.close();
      throw err;
    }
    this.#client = client;
    if (this.#closed) client.close();
    return client;
  }

  /** Runs one statement (opening the database first if needed), within the deadline. */
  async execute(stmt: InStatement): Promise<ResultSet> {
    const client = await this.client();
    return await withDeadline(client.execute(stmt), this.#timeoutMs, "libSQL");
  }

  /** Runs statements as one batch (one transaction), within the deadline. */
  async batch(stmts: InStatement[], mode: TransactionMode = "write"): Promise<ResultSet[]> {
    const client = await this.client();
    return await withDeadline(client.batch(stmts, mode), this.#timeoutMs, "libSQL");
  }

  /** Closes the client (now, or when an opening in flight ends). */
  close(): void {
    this.#closed = true;
    this.#client?.close();
  }
}

/**
 * The `DB` binding from the environment (see {@link dbConfigFromEnv}), opened and migrated on
 * first use. A remote URL its client would refuse stops start-up ({@link checkRemoteUrl}).
 */
export function dbFromEnv(env: Env, defaultFile: string, migrations: readonly Migration[]): Db {
  const config = dbConfigFromEnv(env, defaultFile);
  if (!config.missing && isRemoteUrl(config.url)) checkRemoteUrl(config);
  return new Db(config, migrations);
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
 * Returns the versions applied by this call (none when the schema is current, which one
 * read tells).
 */
export async function migrate(db: Client, migrations: readonly Migration[]): Promise<number[]> {
  const sorted = [...migrations].sort((a, b) => a.version - b.version);
  for (const [i, m] of sorted.entries()) {
    if (!Number.isInteger(m.version) || m.version < 1 || sorted[i - 1]?.version === m.version) {
      throw new Error(`migration versions must be distinct positive integers (${m.version})`);
    }
  }
  // A schema that is already current (every start but the first) is told by one read: over
  // Hrana each statement and each step of a transaction is a round trip, and an instance's
  // first request waits for them all. No table yet, or a version missing: the full path.
  try {
    const recorded = new Set((await appliedVersions(db)).map(Number));
    if (sorted.every((m) => recorded.has(m.version))) return [];
  } catch {
    // No schema_migrations yet (or the read failed: the full path reports what is wrong).
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
export async function appliedVersions(
  db: { execute(stmt: InStatement): Promise<ResultSet> },
): Promise<number[]> {
  const rs = await db.execute("SELECT version FROM schema_migrations ORDER BY version");
  return rs.rows.map((r) => Number(r.version));
}
