/** The link record and the time rules around it. */

/** Default `CACHE_TTL_SECONDS`: how long a resolved link stays cached. */
export const DEFAULT_CACHE_TTL_SECONDS = 3600;

/**
 * Lifetime of a link in an instance's own memory without a shared cache: a change made through
 * one instance reaches every other within it.
 */
export const LOCAL_TTL_MS = 4_000;

/** Lifetime of a link in an instance's own memory in front of a shared cache (Upstash). */
export const LOCAL_TTL_WITH_SHARED_MS = 750;

/** A stored link, as `GET /:code/info` returns it. */
export interface LinkRecord {
  code: string;
  /** Absolute http(s) target, in normalised form. */
  url: string;
  /** ISO 8601 instant (UTC). */
  createdAt: string;
  /** ISO 8601 instant (UTC) after which the link is gone, or null for never. */
  expiresAt: string | null;
}

/** True when the link has expired at `now` (ms since the epoch). */
export function isExpired(link: LinkRecord, now: number = Date.now()): boolean {
  return link.expiresAt !== null && Date.parse(link.expiresAt) <= now;
}

/**
 * How long the link may stay cached: `ttlMs`, but never beyond its expiry.
 * Zero or less means "do not cache" (it has expired).
 */
export function cacheTtlMs(link: LinkRecord, ttlMs: number, now: number = Date.now()): number {
  if (link.expiresAt === null) return ttlMs;
  return Math.min(ttlMs, Date.parse(link.expiresAt) - now);
}
