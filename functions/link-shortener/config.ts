/** The link-shortener's bindings from the environment (what main.ts serves). */
import { BreakerCache, cacheFromEnv, UpstashCache } from "../../shared/bindings/cache.ts";
import type { Env } from "../../shared/contract/config.ts";
import { dbFromEnv } from "../../shared/bindings/db.ts";
import type { Bindings } from "./app.ts";
import { DEFAULT_CACHE_TTL_SECONDS, LOCAL_TTL_MS } from "./link.ts";
import { ClickCounter, DEFAULT_CLICK_FLUSH_MS } from "./clicks.ts";
import { LINK_MIGRATIONS } from "./migrations.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8007;

/** File name of the default database under `DATA_DIR`. */
export const DB_FILE = "links.db";

/**
 * Longest accepted `CACHE_LOCAL_TTL_MS`: a change made through one instance must reach every
 * other within 5 s even without a shared cache.
 */
export const MAX_LOCAL_TTL_MS = LOCAL_TTL_MS;

/** Longest accepted `CACHE_TTL_SECONDS` (30 days). */
export const MAX_CACHE_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Reads every variable (a malformed one is a ConfigError naming it). Opens nothing: the
 * database is opened and migrated by the first request that needs it, so a database or
 * cache that is down at start-up never stops the service (its requests answer
 * DATABASE_ERROR until it is back).
 */
export function bindingsFromEnv(env: Env): Bindings {
  const db = dbFromEnv(env, DB_FILE, LINK_MIGRATIONS);
  const cache = cacheFromEnv(env);
  const cacheTtlSeconds = env.int(
    "CACHE_TTL_SECONDS",
    DEFAULT_CACHE_TTL_SECONDS,
    1,
    MAX_CACHE_TTL_SECONDS,
  );
  const localCacheTtlMs = env.int("CACHE_LOCAL_TTL_MS", -1, 0, MAX_LOCAL_TTL_MS);
  const publicBaseUrl = env.url("PUBLIC_BASE_URL");
  const flushMs = env.int("CLICK_FLUSH_MS", DEFAULT_CLICK_FLUSH_MS, 100, 600_000);
  const rateLimit = env.int("SHORTEN_RATE_LIMIT", 0, 0, 1_000_000);
  const windowSeconds = env.int("SHORTEN_RATE_WINDOW_SECONDS", 60, 1, 86_400);
  // With Upstash the limit is counted there, on the cache's client, so it holds across instances.
  const redis = cache instanceof BreakerCache && cache.inner instanceof UpstashCache
    ? cache.inner.redis
    : undefined;
  const shortenRateLimit = rateLimit > 0 ? { limit: rateLimit, windowSeconds, redis } : undefined;
  // Flushed every CLICK_FLUSH_MS once clicks come in, and by `close` on SIGTERM/SIGINT.
  const clicks = new ClickCounter(db, { flushMs, autoFlush: true });
  const close = async () => {
    try {
      await clicks.stop();
    } finally {
      db.close();
    }
  };
  return {
    DB: db,
    CACHE: cache,
    cacheTtlSeconds,
    // Unset: the resolver's default for the cache it has (LOCAL_TTL_MS or LOCAL_TTL_WITH_SHARED_MS).
    localCacheTtlMs: localCacheTtlMs < 0 ? undefined : localCacheTtlMs,
    publicBaseUrl,
    clicks,
    shortenRateLimit,
    close,
  };
}
