/**
 * The redirect lookup of contract rule 7: the cache first; on a miss libSQL; a link found
 * there is put in the cache (never past its expiry) before the answer. The cache is only an
 * accelerator: any failure of it is logged and treated as a miss (and the request then
 * skips filling it, so a hanging cache costs one timeout, not two). Misses are not cached,
 * so a code works the moment it is created.
 */
import type { Cache } from "../../shared/bindings/cache.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import { cacheTtlMs, isExpired } from "./link.ts";
import type { LinkStore } from "./store.ts";

/** Prefix of cache keys, so a shared Redis database can hold other data beside the links. */
export const CACHE_KEY_PREFIX = "link:";

/** The cache key of a code. */
export function cacheKey(code: string): string {
  return CACHE_KEY_PREFIX + code;
}

/** Resolves codes to target URLs. */
export class LinkResolver {
  readonly #store: LinkStore;
  readonly #cache: Cache;
  readonly #ttlMs: number;
  readonly #log: (line: string) => void;

  /** `ttlMs` is the longest a cached link lives; `log` receives one JSON line per cache failure. */
  constructor(store: LinkStore, cache: Cache, ttlMs: number, log: (line: string) => void) {
    this.#store = store;
    this.#cache = cache;
    this.#ttlMs = ttlMs;
    this.#log = log;
  }

  /** The target of `code`, or null when it is unknown or expired. */
  async resolve(code: string): Promise<string | null> {
    const key = cacheKey(code);
    let cached: string | null = null;
    let cacheUp = true;
    try {
      cached = await this.#cache.get(key);
    } catch (err) {
      this.#cacheFailed("get", code, err);
      cacheUp = false;
    }
    if (cached !== null) return cached;

    const link = await this.#store.findByCode(code);
    if (link === null || isExpired(link)) return null;
    const ttl = cacheTtlMs(link, this.#ttlMs);
    // A cache that just failed is not written to: one timeout per request at most.
    if (cacheUp && ttl >= 1) {
      try {
        await this.#cache.set(key, link.url, ttl);
      } catch (err) {
        this.#cacheFailed("set", code, err);
      }
    }
    return link.url;
  }

  #cacheFailed(op: string, code: string, err: unknown): void {
    logEvent({ level: "warn", event: "cache_error", op, code, message: errorText(err) }, this.#log);
  }
}
