/**
 * The redirect lookup of contract rule 7, in three tiers as dub does it: an in-process LRU
 * whose entries live a few seconds, then the shared cache (Upstash, when configured), then
 * libSQL, the source of truth. A link found lower down fills the tiers above it (never past
 * its expiry) before the answer. Misses are not cached, so a code works the moment it exists.
 *
 * Several instances each hold their own LRU, so what bounds how long a changed or deleted link
 * can still be served somewhere is that LRU's lifetime, counted from the moment its lookup
 * started (a value read just before a change expires at most that long after it):
 * {@link LOCAL_TTL_MS} alone, {@link LOCAL_TTL_WITH_SHARED_MS} in front of a shared cache,
 * which every change clears itself. A change leaves a short-lived marker
 * ({@link TOMBSTONE}) in the shared cache rather than deleting the key, and lookups fill the
 * shared cache only where it holds nothing (`SET NX`): a lookup of another instance that read
 * the old row before the change cannot put it back.
 *
 * The shared cache is only an accelerator for reads: any failure of it is logged and treated
 * as a miss (and the lookup then skips filling it; a circuit breaker in the binding skips it
 * altogether for a while). A change, though, must clear it: {@link LinkResolver.invalidate}
 * rejects when it cannot, and the caller changes nothing.
 */
import { type Cache, CacheUnavailableError, MemoryCache } from "../../shared/bindings/cache.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import { isSyncReadable, type SyncReadableCache } from "./hot_path.ts";
import { cacheTtlMs, isExpired, LOCAL_TTL_MS, LOCAL_TTL_WITH_SHARED_MS } from "./link.ts";
import type { LinkStore } from "./store.ts";

/** Prefix of cache keys, so a shared Redis database can hold other data beside the links. */
export const CACHE_KEY_PREFIX = "link:";

/** The cache key of a code. */
export function cacheKey(code: string): string {
  return CACHE_KEY_PREFIX + code;
}

/**
 * What a change leaves in the shared cache instead of the URL (no stored URL starts with `!`):
 * read as a miss, and it keeps lookups that read the old row from filling the key.
 */
export const TOMBSTONE = "!changed";

/** What a lookup found: the target, or that the link has expired. */
export type Resolved = { url: string; expired?: undefined } | { url?: undefined; expired: true };

/** Options of {@link LinkResolver}. */
export interface ResolverOptions {
  /** Longest a link stays in the shared cache (ms). */
  ttlMs: number;
  /** Receives one JSON line per cache failure. */
  log: (line: string) => void;
  /**
   * How long a change's marker stays in the shared cache (ms): longer than a lookup can take
   * from reading libSQL to filling the cache (its database deadline plus a cache call).
   */
  tombstoneMs?: number;
  /**
   * Lifetime of in-process entries (ms; 0: none kept); default {@link LOCAL_TTL_MS} alone,
   * {@link LOCAL_TTL_WITH_SHARED_MS} in front of a shared cache.
   */
  localTtlMs?: number;
  /** Bound of the in-process LRU made in front of a shared cache (entries). */
  localMaxEntries?: number;
  /** The clock of the in-process tier in ms (tests pass a fake one; `performance.now`). */
  now?: () => number;
}

/** Default lifetime of a change's marker: two database deadlines and a margin. */
export const DEFAULT_TOMBSTONE_MS = 12_000;

/** Resolves codes to target URLs. */
export class LinkResolver {
  readonly #store: LinkStore;
  /** The in-process tier (the hot path reads it synchronously). */
  readonly local: SyncReadableCache;
  /** The shared tier, or null without one. */
  readonly #shared: Cache | null;
  readonly #localTtlMs: number;
  readonly #ttlMs: number;
  readonly #tombstoneMs: number;
  readonly #log: (line: string) => void;
  readonly #now: () => number;
  /** Lookups in flight, one per code: concurrent misses of a code share one read. */
  readonly #inFlight = new Map<string, Promise<Resolved | null>>();
  /** Bumped by every invalidation: a lookup that saw it change fills no tier. */
  #generation = 0;

  /**
   * `cache` is the CACHE binding: an in-process cache (the in-memory LRU, on its own clock,
   * which should be `options.now`) becomes the local tier with no shared one; a remote one (Upstash) becomes the shared tier behind a new
   * local LRU.
   */
  constructor(store: LinkStore, cache: Cache, options: ResolverOptions) {
    this.#store = store;
    this.#now = options.now ?? (() => performance.now());
    if (isSyncReadable(cache)) {
      this.local = cache;
      this.#shared = null;
    } else {
      this.local = new MemoryCache(options.localMaxEntries, this.#now);
      this.#shared = cache;
    }
    this.#localTtlMs = options.localTtlMs ??
      (this.#shared ? LOCAL_TTL_WITH_SHARED_MS : LOCAL_TTL_MS);
    this.#ttlMs = options.ttlMs;
    this.#tombstoneMs = options.tombstoneMs ?? DEFAULT_TOMBSTONE_MS;
    this.#log = options.log;
  }

  /** The longest a changed link can still be served by this instance after the change. */
  get localTtlMs(): number {
    return this.#localTtlMs;
  }

  /** The target of `code`, `{expired: true}` for an expired link, or null when unknown. */
  resolve(code: string): Promise<Resolved | null> {
    const cached = this.local.getSync(cacheKey(code));
    if (cached !== null) return Promise.resolve({ url: cached });
    const pending = this.#inFlight.get(code);
    if (pending) return pending;
    const lookup = this.#lookup(code).finally(() => {
      if (this.#inFlight.get(code) === lookup) this.#inFlight.delete(code);
    });
    this.#inFlight.set(code, lookup);
    return lookup;
  }

  async #lookup(code: string): Promise<Resolved | null> {
    const key = cacheKey(code);
    const started = this.#now();
    const generation = this.#generation;
    // Fill the shared tier only when it answered, and held nothing (not a change's marker).
    let fillShared = this.#shared !== null;
    if (this.#shared) {
      let shared: string | null = null;
      try {
        shared = await this.#shared.get(key);
      } catch (err) {
        this.#cacheFailed("get", code, err);
        fillShared = false;
      }
      if (shared === TOMBSTONE) fillShared = false;
      else if (shared !== null) {
        this.#fillLocal(key, shared, this.#localTtlMs, started, generation);
        return { url: shared };
      }
    }

    const link = await this.#store.findByCode(code);
    if (link === null) return null;
    if (isExpired(link)) return { expired: true };
    const ttl = cacheTtlMs(link, this.#ttlMs);
    // A value read before a PATCH/DELETE finished must not outlive it in any tier.
    if (generation !== this.#generation) return { url: link.url };
    this.#fillLocal(key, link.url, Math.min(ttl, this.#localTtlMs), started, generation);
    if (fillShared && ttl >= 1) {
      try {
        await this.#shared!.add(key, link.url, ttl);
      } catch (err) {
        this.#cacheFailed("add", code, err);
      }
    }
    return { url: link.url };
  }

  /** Keeps `value` in process until `ttlMs` after the lookup started (not after it ended). */
  #fillLocal(key: string, value: string, ttlMs: number, started: number, generation: number) {
    const left = ttlMs - (this.#now() - started);
    if (left >= 1 && generation === this.#generation) void this.local.set(key, value, left);
  }

  /**
   * Clears `code` from every tier: at once in process (lookups reading meanwhile will not
   * fill anything), and in the shared cache by a marker that keeps other instances' lookups
   * from filling it with what they read before the change. Rejects when the shared cache
   * cannot confirm it.
   */
  async invalidate(code: string): Promise<void> {
    this.#generation++;
    this.#inFlight.delete(code);
    const key = cacheKey(code);
    await this.local.delete(key);
    if (this.#shared) await this.#shared.set(key, TOMBSTONE, this.#tombstoneMs);
  }

  #cacheFailed(op: string, code: string, err: unknown): void {
    // The breaker already logged that it opened; one line per skipped call would flood.
    if (err instanceof CacheUnavailableError) return;
    logEvent({ level: "warn", event: "cache_error", op, code, message: errorText(err) }, this.#log);
  }
}
