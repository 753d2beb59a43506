/**
 * The `CACHE` binding: a key-value cache with per-entry time to live. The real adapter runs
 * `@upstash/redis` over its REST API; the embedded default is a bounded in-memory LRU.
 * A cache is an accelerator: callers treat every failure (including a timeout) as a miss.
 */
import type { Redis } from "@upstash/redis";
import { ConfigError, type Env } from "../contract/config.ts";
import { onFirstUse } from "../contract/lazy.ts";
import { logEvent } from "../contract/log.ts";
import { withDeadline } from "./deadline.ts";

/** Get / set with a time to live / delete. Every call may reject; none should hang. */
export interface Cache {
  /** The value under `key`, or null when absent or expired. */
  get(key: string): Promise<string | null>;
  /** Stores `value` under `key` for `ttlMs` milliseconds (at least 1). */
  set(key: string, value: string, ttlMs: number): Promise<void>;
  /**
   * Stores `value` under `key` for `ttlMs` only when `key` holds nothing (Redis `SET NX`):
   * resolves true when it stored it. A filler that read old data cannot overwrite a marker a
   * writer left meanwhile.
   */
  add(key: string, value: string, ttlMs: number): Promise<boolean>;
  /** Removes `key` (absent keys are fine). */
  delete(key: string): Promise<void>;
  /**
   * Loads what the first call needs (a client loaded on first use), so that a caller's deadline
   * times the call and not the module load. Optional: a cache with nothing to load has none.
   */
  ready?(): Promise<void>;
}

/** Default bound of the in-memory cache (entries). */
export const DEFAULT_MEMORY_ENTRIES = 10_000;

/** Default time limit of one remote cache call (ms). */
export const DEFAULT_CACHE_TIMEOUT_MS = 300;

interface MemoryEntry {
  value: string;
  /** `performance.now()` after which the entry is gone. */
  expires: number;
  /** When it was last put at the end of the order (a count of such moves). */
  moved: number;
}

/**
 * A bounded LRU in process memory: a `Map` keeps insertion order, so a hit re-inserts its
 * entry at the end and an insert past the bound evicts the first (least recently used) one.
 * A hit on an entry already among the last half of that order is left in place (a delete and
 * an insert on every hit were a sixth of the link shortener's cached redirect): it cannot be
 * first before at least half the bound of other entries have been put after it, so what is
 * evicted is still an entry that went unused for the longest of any, to within half the bound.
 *
 * Not `lru-cache` (the screenshot's repeat cache uses it): it imports `node:diagnostics_channel`,
 * so building this cache at the link-shortener's start-up would load Deno's Node compatibility
 * layer there (100-230 ms to import it on this loaded machine, 2026-11-26, against 20-80 ms for
 * hono), and loading it on first write would make `set` asynchronous where callers write and
 * read in one tick. A hit measured the same either way (0.85-1.18x, in-process, 10,000 entries).
 */
export class MemoryCache implements Cache {
  readonly #entries = new Map<string, MemoryEntry>();
  readonly #maxEntries: number;
  readonly #now: () => number;
  /** Entries put at the end of the order so far. */
  #moves = 0;

  /** `maxEntries` bounds memory; `now` is the clock in ms (tests pass a fake one). */
  constructor(maxEntries = DEFAULT_MEMORY_ENTRIES, now: () => number = () => performance.now()) {
    if (!Number.isInteger(maxEntries) || maxEntries < 1) {
      throw new RangeError("maxEntries must be a positive integer");
    }
    this.#maxEntries = maxEntries;
    this.#now = now;
  }

  /** Entries held now, expired ones included until they are touched or evicted. */
  get size(): number {
    return this.#entries.size;
  }

  /** The live value under `key`, refreshed as most recently used. */
  getSync(key: string): string | null {
    const entry = this.#entries.get(key);
    if (entry === undefined) return null;
    if (entry.expires <= this.#now()) {
      this.#entries.delete(key);
      return null;
    }
    if (this.#moves - entry.moved >= this.#maxEntries / 2) {
      this.#entries.delete(key);
      entry.moved = ++this.#moves;
      this.#entries.set(key, entry);
    }
    return entry.value;
  }

  /** See {@link Cache.get}. */
  get(key: string): Promise<string | null> {
    return Promise.resolve(this.getSync(key));
  }

  /** See {@link Cache.set}. */
  set(key: string, value: string, ttlMs: number): Promise<void> {
    this.#entries.delete(key);
    this.#entries.set(key, {
      value,
      expires: this.#now() + Math.max(1, ttlMs),
      moved: ++this.#moves,
    });
    if (this.#entries.size > this.#maxEntries) {
      this.#entries.delete(this.#entries.keys().next().value!);
    }
    return Promise.resolve();
  }

  /** See {@link Cache.add}. */
  add(key: string, value: string, ttlMs: number): Promise<boolean> {
    const entry = this.#entries.get(key);
    if (entry !== undefined && entry.expires > this.#now()) return Promise.resolve(false);
    return this.set(key, value, ttlMs).then(() => true);
  }

  /** See {@link Cache.delete}. */
  delete(key: string): Promise<void> {
    this.#entries.delete(key);
    return Promise.resolve();
  }
}

/** Connection settings of {@link UpstashCache}. */
export interface UpstashOptions {
  /** REST URL of the database (`UPSTASH_REDIS_REST_URL`). */
  url: string;
  /** REST token (`UPSTASH_REDIS_REST_TOKEN`). */
  token: string;
  /** Time limit of one call, after which it rejects (default 300 ms). */
  timeoutMs?: number;
  /** Batch commands issued in the same tick into one `/pipeline` request (default true). */
  autoPipelining?: boolean;
}

/**
 * The cache on Upstash Redis through `@upstash/redis`. Set up to fail fast, because a
 * cache that is down must cost a request little: no retries (the client's default is 5,
 * with backoff), and every HTTP call aborts after `timeoutMs`. Values are stored and read
 * as raw strings (no JSON (de)serialisation, so a URL never turns into another type).
 * The client is imported and built by the first call, not at start-up (bench/bundle_cold_start.ts).
 */
export class UpstashCache implements Cache {
  /** The underlying client, loaded on first use (the app only uses the Cache methods). */
  readonly redis: () => Promise<Redis>;

  /** Makes no request, and loads nothing, until the first call. */
  constructor(options: UpstashOptions) {
    const timeoutMs = options.timeoutMs ?? DEFAULT_CACHE_TIMEOUT_MS;
    this.redis = onFirstUse(async () => {
      const { Redis } = await import("@upstash/redis");
      return new Redis({
        url: options.url,
        token: options.token,
        // `retries: 0` is one attempt; `retry: false` would still be two.
        retry: { retries: 0, backoff: () => 0 },
        // A function, so each request gets a fresh deadline and an abort rejects: with a
        // plain signal the client turns an abort into a successful "Aborted" result.
        signal: () => AbortSignal.timeout(timeoutMs),
        automaticDeserialization: false,
        enableTelemetry: false,
        enableAutoPipelining: options.autoPipelining ?? true,
        // The read-your-writes token only matters for replicas; it costs a header per call.
        readYourWrites: false,
      });
    });
  }

  /** See {@link Cache.ready}: imports and builds the client. */
  async ready(): Promise<void> {
    await this.redis();
  }

  /** See {@link Cache.get}. */
  async get(key: string): Promise<string | null> {
    const value = await (await this.redis()).get<string>(key);
    return value === null || value === undefined ? null : String(value);
  }

  /** See {@link Cache.set}: whole seconds go as `EX`, anything finer as `PX`. */
  async set(key: string, value: string, ttlMs: number): Promise<void> {
    const redis = await this.redis();
    const ms = Math.max(1, Math.ceil(ttlMs));
    if (ms % 1000 === 0) await redis.set(key, value, { ex: ms / 1000 });
    else await redis.set(key, value, { px: ms });
  }

  /** See {@link Cache.add}: `SET key value NX PX ttl`. */
  async add(key: string, value: string, ttlMs: number): Promise<boolean> {
    const redis = await this.redis();
    const stored = await redis.set(key, value, { nx: true, px: Math.max(1, Math.ceil(ttlMs)) });
    return stored !== null;
  }

  /** See {@link Cache.delete}. */
  async delete(key: string): Promise<void> {
    await (await this.redis()).del(key);
  }
}

/** Default consecutive failures that open the {@link BreakerCache} circuit. */
export const DEFAULT_BREAKER_FAILURES = 5;

/** Default time the circuit stays open before one call is let through to try again (ms). */
export const DEFAULT_BREAKER_COOLDOWN_MS = 5_000;

/** A call refused at once because the circuit is open (the cache is known to be down). */
export class CacheUnavailableError extends Error {
  constructor() {
    super("cache circuit open: skipped");
    this.name = "CacheUnavailableError";
  }
}

/** Settings of {@link BreakerCache}. */
export interface BreakerOptions {
  /** Consecutive failures (errors or deadlines) that open the circuit (default 5). */
  failures?: number;
  /** How long it stays open before a trial call (ms, default 5000). */
  cooldownMs?: number;
  /** Deadline of one call (ms, default 300). */
  timeoutMs?: number;
  /** Told when the circuit opens or closes again (one JSON log line is the usual answer). */
  onStateChange?: (state: "open" | "closed", reason: string) => void;
  /** The clock in ms (tests pass a fake one). */
  now?: () => number;
}

/**
 * A circuit breaker around a remote cache. Every call gets a deadline; after `failures`
 * failures in a row the circuit opens and every call is refused at once with
 * {@link CacheUnavailableError} (so a hanging cache costs a redirect nothing, not its
 * timeout); after `cooldownMs` one call is let through: its success closes the circuit, its
 * failure opens it for another cooldown. Calls made while that trial is out are refused.
 */
export class BreakerCache implements Cache {
  readonly #inner: Cache;
  readonly #failures: number;
  readonly #cooldownMs: number;
  readonly #timeoutMs: number;
  readonly #onStateChange: (state: "open" | "closed", reason: string) => void;
  readonly #now: () => number;
  #consecutive = 0;
  #openUntil = 0;
  #open = false;
  #trialOut = false;
  /** Whether the inner cache's `ready` has resolved (then calls skip it). */
  #ready = false;

  /** Wraps `inner`. */
  constructor(inner: Cache, options: BreakerOptions = {}) {
    this.#inner = inner;
    this.#failures = options.failures ?? DEFAULT_BREAKER_FAILURES;
    this.#cooldownMs = options.cooldownMs ?? DEFAULT_BREAKER_COOLDOWN_MS;
    this.#timeoutMs = options.timeoutMs ?? DEFAULT_CACHE_TIMEOUT_MS;
    this.#onStateChange = options.onStateChange ?? (() => {});
    this.#now = options.now ?? (() => performance.now());
  }

  /** The wrapped cache. */
  get inner(): Cache {
    return this.#inner;
  }

  /** `closed` (calls go through), `open` (refused), `half-open` (a trial may go through). */
  get state(): "closed" | "open" | "half-open" {
    if (!this.#open) return "closed";
    return this.#now() >= this.#openUntil ? "half-open" : "open";
  }

  async #call<T>(op: string, run: () => Promise<T>): Promise<T> {
    let trial = false;
    if (this.#open) {
      if (this.#trialOut || this.#now() < this.#openUntil) throw new CacheUnavailableError();
      trial = this.#trialOut = true;
    }
    try {
      // Loading the client is not the cache being slow: it stays outside the deadline.
      if (!this.#ready && this.#inner.ready) await this.#inner.ready();
      this.#ready = true;
      const value = await withDeadline(run(), this.#timeoutMs, `cache ${op}`);
      this.#consecutive = 0;
      if (this.#open) {
        this.#open = false;
        this.#onStateChange("closed", `${op} succeeded`);
      }
      return value;
    } catch (err) {
      this.#consecutive++;
      if (trial || (!this.#open && this.#consecutive >= this.#failures)) {
        const wasOpen = this.#open;
        this.#open = true;
        this.#openUntil = this.#now() + this.#cooldownMs;
        if (!wasOpen) {
          this.#onStateChange(
            "open",
            `${this.#consecutive} failures in a row, last: ${
              err instanceof Error ? `${err.name}: ${err.message}` : String(err)
            }`,
          );
        }
      }
      throw err;
    } finally {
      if (trial) this.#trialOut = false;
    }
  }

  /** See {@link Cache.get}. */
  get(key: string): Promise<string | null> {
    return this.#call("get", () => this.#inner.get(key));
  }

  /** See {@link Cache.set}. */
  set(key: string, value: string, ttlMs: number): Promise<void> {
    return this.#call("set", () => this.#inner.set(key, value, ttlMs));
  }

  /** See {@link Cache.add}. */
  add(key: string, value: string, ttlMs: number): Promise<boolean> {
    return this.#call("add", () => this.#inner.add(key, value, ttlMs));
  }

  /** See {@link Cache.delete}. */
  delete(key: string): Promise<void> {
    return this.#call("delete", () => this.#inner.delete(key));
  }
}

/** Logs the breaker's state changes, one JSON line each. */
function logBreaker(state: "open" | "closed", reason: string): void {
  logEvent({
    level: state === "open" ? "warn" : "info",
    event: state === "open" ? "cache_circuit_open" : "cache_circuit_closed",
    reason,
  });
}

/**
 * The `CACHE` binding from the environment: Upstash when `UPSTASH_REDIS_REST_URL` and
 * `UPSTASH_REDIS_REST_TOKEN` are both set (`CACHE_TIMEOUT_MS` bounds each call, and a
 * circuit breaker, `CACHE_BREAKER_FAILURES` / `CACHE_BREAKER_COOLDOWN_MS`, skips it while it
 * is down), else the in-memory LRU (`CACHE_MAX_ENTRIES` bounds it). Throws ConfigError on a
 * malformed value.
 */
export function cacheFromEnv(env: Env): Cache {
  const timeoutMs = env.int("CACHE_TIMEOUT_MS", DEFAULT_CACHE_TIMEOUT_MS, 10, 60_000);
  const maxEntries = env.int("CACHE_MAX_ENTRIES", DEFAULT_MEMORY_ENTRIES, 1, 10_000_000);
  const failures = env.int("CACHE_BREAKER_FAILURES", DEFAULT_BREAKER_FAILURES, 1, 1000);
  const cooldownMs = env.int(
    "CACHE_BREAKER_COOLDOWN_MS",
    DEFAULT_BREAKER_COOLDOWN_MS,
    100,
    600_000,
  );
  const pair = env.pair("UPSTASH_REDIS_REST_URL", "UPSTASH_REDIS_REST_TOKEN");
  if (!pair) return new MemoryCache(maxEntries);
  const url = env.url("UPSTASH_REDIS_REST_URL");
  if (!url) throw new ConfigError("UPSTASH_REDIS_REST_URL must be an absolute URL");
  const upstash = new UpstashCache({ url, token: pair[1], timeoutMs });
  return new BreakerCache(upstash, {
    failures,
    cooldownMs,
    // The client aborts at timeoutMs itself; this is the backstop.
    timeoutMs: timeoutMs + 50,
    onStateChange: logBreaker,
  });
}
