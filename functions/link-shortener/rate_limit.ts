/**
 * The optional per-client limit on `POST /shorten` (off by default: the contract recommends
 * rate limits outside the service; this is for deployments without one). A fixed window per
 * client address: at most `limit` requests per `windowMs`. Memory is bounded by the clients
 * of one window (the table is replaced when the window turns).
 */

/** The verdict on one request. */
export interface RateVerdict {
  allowed: boolean;
  /** Seconds until the window turns (for `Retry-After`). */
  retryAfterSeconds: number;
}

/** Counts requests per client in fixed windows. */
export class FixedWindowLimiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #now: () => number;
  #windowStart = -Infinity;
  #counts = new Map<string, number>();

  /** `now` is the clock in ms (tests pass a fake one). */
  constructor(limit: number, windowMs: number, now: () => number = Date.now) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#now = now;
  }

  /** Counts a request of `client` and says whether it may go on. */
  take(client: string): RateVerdict {
    const now = this.#now();
    if (now >= this.#windowStart + this.windowMs) {
      this.#windowStart = now - (now % this.windowMs);
      this.#counts = new Map();
    }
    const count = (this.#counts.get(client) ?? 0) + 1;
    this.#counts.set(client, count);
    const retryAfterSeconds = Math.max(
      1,
      Math.ceil((this.#windowStart + this.windowMs - now) / 1000),
    );
    return { allowed: count <= this.limit, retryAfterSeconds };
  }
}
