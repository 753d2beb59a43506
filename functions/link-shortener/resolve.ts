/**
 * The redirect lookup of contract rule 7: the cache first; on a miss libSQL; a link found
 * there is put in the cache (never past its expiry) before the answer. The cache is only an
 * accelerator: any failure of it is logged and treated as a miss (and the request then
 * skips filling it, so a hanging cache costs one timeout, not two; a circuit breaker in the
 * binding then skips it altogether for a while). Misses are not cached, so a code works the
 * moment it is created. A link changed or removed while a lookup was reading libSQL is not
 * put back in the cache by that lookup (see {@link LinkResolver.invalidate}).
 */
import { type Cache, CacheUnavailableError } from "../../shared/bindings/cache.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import { cacheTtlMs, isExpired, isGated } from "./link.ts";
import type { LinkStore } from "./store.ts";

/** Prefix of cache keys, so a shared Redis database can hold other data beside the links. */
export const CACHE_KEY_PREFIX = "link:";

/** The cache key of a code. */
export function cacheKey(code: string): string {
  return CACHE_KEY_PREFIX + code;
}

/**
 * What a lookup found: the target, that the link has expired, or that it is gated (a password
 * or a click limit: decided by the database on each redirect, never cached).
 */
export type Resolved =
  | { url: string; expired?: undefined; gated?: undefined }
  | { url?: undefined; expired: true; gated?: undefined }
  | { url?: undefined; expired?: undefined; gated: true };

/** Resolves codes to target URLs. */
export class LinkResolver {
  readonly #store: LinkStore;
  readonly #cache: Cache;
  readonly #ttlMs: number;
  readonly #log: (line: string) => void;
  /** Bumped by every invalidation: a lookup that saw it change does not fill the cache. */
  #generation = 0;

  /** `ttlMs` is the longest a cached link lives; `log` receives one JSON line per cache failure. */
  constructor(store: LinkStore, cache: Cache, ttlMs: number, log: (line: string) => void) {
    this.#store = store;
    this.#cache = cache;
    this.#ttlMs = ttlMs;
    this.#log = log;
  }

  /** The target of `code`, `{expired: true}` for an expired link, or null when unknown. */
  async resolve(code: string): Promise<Resolved | null> {
    const key = cacheKey(code);
    let cached: string | null = null;
    let cacheUp = true;
    try {
      cached = await this.#cache.get(key);
    } catch (err) {
      this.#cacheFailed("get", code, err);
      cacheUp = false;
    }
    if (cached !== null) return { url: cached };

    const generation = this.#generation;
    const found = await this.#store.findManaged(code);
    if (found === null) return null;
    const link = found.link;
    if (isExpired(link)) return { expired: true };
    if (isGated(found.options)) return { gated: true };
    const ttl = cacheTtlMs(link, this.#ttlMs);
    // A cache that just failed is not written to: one timeout per request at most. A value
    // read before a PATCH/DELETE finished must not outlive it in the cache.
    if (cacheUp && ttl >= 1 && generation === this.#generation) {
      try {
        await this.#cache.set(key, link.url, ttl);
      } catch (err) {
        this.#cacheFailed("set", code, err);
      }
    }
    return { url: link.url };
  }

  /**
   * Removes `code` from the cache; rejects when the cache cannot confirm it. Lookups that
   * were reading libSQL meanwhile will not write their (possibly old) value back.
   */
  async invalidate(code: string): Promise<void> {
    this.#generation++;
    await this.#cache.delete(cacheKey(code));
  }

  #cacheFailed(op: string, code: string, err: unknown): void {
    // The breaker already logged that it opened; one line per skipped call would flood.
    if (err instanceof CacheUnavailableError) return;
    logEvent({ level: "warn", event: "cache_error", op, code, message: errorText(err) }, this.#log);
  }
}
