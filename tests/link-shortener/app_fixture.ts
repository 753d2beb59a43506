/**
 * The link-shortener app on a libSQL file in a fresh temp dir, migrated, with the log lines
 * collected. `await using fx = await linkApp()` closes the database and removes the dir.
 */
import { type Cache, MemoryCache } from "../../shared/bindings/cache.ts";
import { Db } from "../../shared/bindings/db.ts";
import {
  type Bindings,
  createApp,
  type LinkShortenerApp,
} from "../../functions/link-shortener/app.ts";
import { LINK_MIGRATIONS } from "../../functions/link-shortener/migrations.ts";

/** Origin the test requests are addressed to. */
export const ORIGIN = "http://sho.rt";

/** A running app over a temp database. */
export interface LinkApp extends AsyncDisposable {
  app: LinkShortenerApp;
  db: Db;
  cache: Cache;
  /** Every line the app logged (request lines, cache and database failures). */
  logs: string[];
  /** The temp dir holding `links.db`. */
  dir: string;
  /** `file:` URL of the database. */
  dbUrl: string;
  /** POST /shorten with a JSON body (or a raw string body as it is). */
  shorten(body: unknown, init?: RequestInit): Promise<Response>;
  /** GET a path of the app. */
  get(path: string): Promise<Response>;
  /** A fresh app on the same database and bindings (as after a restart, minus the cache). */
  rebuild(bindings?: Partial<Bindings>): LinkShortenerApp;
}

/** Options of {@link linkApp}: bindings to use instead of the defaults, and an existing dir. */
export interface LinkAppOptions extends Partial<Omit<Bindings, "db">> {
  dir?: string;
}

/** Builds the app on `<dir>/links.db` (a new temp dir unless given). */
export async function linkApp(options: LinkAppOptions = {}): Promise<LinkApp> {
  const ownDir = options.dir === undefined;
  const dir = options.dir ?? await Deno.makeTempDir({ prefix: "link_shortener_" });
  const dbUrl = `file:${dir}/links.db`;
  const db = new Db({ url: dbUrl }, LINK_MIGRATIONS);
  await db.client();
  const logs: string[] = [];
  const cache = options.CACHE ?? new MemoryCache();
  const bindings: Bindings = { ...options, DB: db, CACHE: cache };
  const log = (line: string) => logs.push(line);
  const fx: LinkApp = {
    app: createApp(bindings, { log }),
    db,
    cache,
    logs,
    dir,
    dbUrl,
    shorten: async (body, init = {}) =>
      await fx.app.request(`${ORIGIN}/shorten`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: typeof body === "string" ? body : JSON.stringify(body),
        ...init,
      }),
    get: async (path) => await fx.app.request(`${ORIGIN}${path}`),
    rebuild: (more = {}) => createApp({ ...bindings, ...more }, { log }),
    async [Symbol.asyncDispose]() {
      db.close();
      if (ownDir) await Deno.remove(dir, { recursive: true });
    },
  };
  return fx;
}

/** One call to a cache, as {@link RecordingCache} saw it. */
export interface CacheCall {
  op: "get" | "set" | "add" | "delete";
  key: string;
  value?: string;
  ttlMs?: number;
}

/**
 * A MemoryCache that records its calls and can be told to fail (a test double). It is not
 * readable synchronously, so the app takes it for a shared cache (as Upstash) and puts its own
 * in-process tier in front of it.
 */
export class RecordingCache implements Cache {
  readonly calls: CacheCall[] = [];
  readonly inner = new MemoryCache();
  /** When set, calls reject with this error (those in `failOps`, or all when it is empty). */
  failWith: Error | null = null;
  /** The operations that fail while `failWith` is set (empty: all of them). */
  failOps = new Set<CacheCall["op"]>();

  #fails(op: CacheCall["op"]): boolean {
    return this.failWith !== null && (this.failOps.size === 0 || this.failOps.has(op));
  }

  /** Records and forwards (or fails). */
  get(key: string): Promise<string | null> {
    this.calls.push({ op: "get", key });
    return this.#fails("get") ? Promise.reject(this.failWith) : this.inner.get(key);
  }

  /** Records and forwards (or fails). */
  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.calls.push({ op: "set", key, value, ttlMs });
    return this.#fails("set") ? Promise.reject(this.failWith) : this.inner.set(key, value, ttlMs);
  }

  /** Records and forwards (or fails). */
  add(key: string, value: string, ttlMs: number): Promise<boolean> {
    this.calls.push({ op: "add", key, value, ttlMs });
    return this.#fails("add") ? Promise.reject(this.failWith) : this.inner.add(key, value, ttlMs);
  }

  /** Records and forwards (or fails). */
  delete(key: string): Promise<void> {
    this.calls.push({ op: "delete", key });
    return this.#fails("delete") ? Promise.reject(this.failWith) : this.inner.delete(key);
  }
}

/** Count of rows in `links`. */
export async function linkCount(db: Db): Promise<number> {
  const rs = await db.execute("SELECT count(*) AS n FROM links");
  return Number(rs.rows[0].n);
}
