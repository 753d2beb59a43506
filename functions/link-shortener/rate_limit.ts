/**
 * The optional per-client limit on `POST /shorten` (off by default: the contract recommends
 * rate limits outside the service; this is for deployments without one). A fixed window per
 * client address: at most `limit` requests per window.
 *
 * Without Upstash the count is per instance ({@link FixedWindowLimiter}): with several
 * instances a client gets `limit` per instance. With Upstash it is counted there by
 * `@upstash/ratelimit` ({@link SharedWindowLimiter}), so it holds across every instance; when
 * Upstash fails, the instance's own count decides (the limit then holds per instance again)
 * rather than letting every request through or refusing them all.
 */
import type { Ratelimit } from "@upstash/ratelimit";
import type { Redis } from "@upstash/redis";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { errorText, logEvent, type LogSink } from "../../shared/contract/log.ts";

/** The verdict on one request. */
export interface RateVerdict {
  allowed: boolean;
  /** Seconds until the window turns (for `Retry-After`). */
  retryAfterSeconds: number;
}

/** Something that counts a client's request and says whether it may go on. */
export interface Limiter {
  readonly limit: number;
  readonly windowMs: number;
  take(client: string): RateVerdict | Promise<RateVerdict>;
}

/**
 * Counts requests per client in fixed windows, in this process. Memory is bounded by the
 * clients of one window (the table is replaced when the window turns).
 */
export class FixedWindowLimiter implements Limiter {
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

/** Prefix of the rate limit's keys in Upstash (beside the cache's `link:` keys). */
export const RATE_LIMIT_PREFIX = "ratelimit:shorten";

/**
 * The same fixed window counted in Upstash by `@upstash/ratelimit` (`Ratelimit.fixedWindow`:
 * one `EVALSHA` of its script per request, `INCRBY` and `PEXPIRE` on `<prefix>:<client>:<window>`),
 * shared by every instance. The library is imported on the first request. A failed call
 * (Upstash down or past the client's deadline) is logged and decided by the local count.
 */
export class SharedWindowLimiter implements Limiter {
  readonly limit: number;
  readonly windowMs: number;
  readonly #local: FixedWindowLimiter;
  readonly #ratelimit: () => Promise<Ratelimit>;
  readonly #log: LogSink | undefined;
  readonly #now: () => number;

  /** `redis` gives the Upstash client (the cache's, with its deadline and no retries). */
  constructor(
    limit: number,
    windowMs: number,
    redis: () => Promise<Redis>,
    options: { log?: LogSink; now?: () => number } = {},
  ) {
    this.limit = limit;
    this.windowMs = windowMs;
    this.#now = options.now ?? Date.now;
    this.#local = new FixedWindowLimiter(limit, windowMs, this.#now);
    this.#log = options.log;
    this.#ratelimit = onFirstUse(async () => {
      const { Ratelimit } = await import("@upstash/ratelimit");
      return new Ratelimit({
        redis: await redis(),
        limiter: Ratelimit.fixedWindow(limit, `${windowMs} ms`),
        prefix: RATE_LIMIT_PREFIX,
        analytics: false,
        // Its own timeout lets a request through unseen; the client's deadline (an error,
        // then the local count) is the one that applies.
        timeout: 0,
      });
    });
  }

  /** Counts a request of `client` in Upstash (and locally, for when Upstash fails). */
  async take(client: string): Promise<RateVerdict> {
    const local = this.#local.take(client);
    try {
      const { success, reset } = await (await this.#ratelimit()).limit(client);
      const retryAfterSeconds = Math.max(1, Math.ceil((reset - this.#now()) / 1000));
      return { allowed: success, retryAfterSeconds };
    } catch (err) {
      logEvent(
        { level: "warn", event: "rate_limit_error", message: errorText(err) },
        this.#log,
      );
      return local;
    }
  }
}
