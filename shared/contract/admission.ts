/**
 * Admission control for routes whose requests each take a lot of memory (a fetched page, its
 * parse tree, the analysis): at most `concurrency` run at once per instance, at most `maxQueued`
 * wait for a slot (oldest first, none longer than `maxWaitMs`), and any request past that is
 * answered at once with the route's contract error and a "busy" message, so that a burst costs
 * a bounded amount of memory instead of the instance (bench/cold_path.ts: peak RSS with 8 and
 * 64 requests in flight). A waiting request whose client went away leaves the queue.
 */
import type { Context } from "hono";
import type { Env } from "./config.ts";
import { ApiError, type ErrorCode } from "./errors.ts";

/** How many requests run at once and how many may wait. */
export interface AdmissionLimits {
  /** Requests running at once (`PAGE_CONCURRENCY`). */
  concurrency: number;
  /** Requests waiting for a slot at most (`PAGE_QUEUE`); past it, the busy error. */
  maxQueued: number;
  /** Longest wait for a slot, in ms (`PAGE_QUEUE_WAIT_MS`); then the busy error. */
  maxWaitMs: number;
}

/**
 * Defaults for the page routes: four pages at once keep 8 or 64 requests in flight under a
 * third of an instance's memory on a ~500 KiB page, and a single JavaScript thread gains
 * little from more (the work is parsing, not waiting).
 */
export const DEFAULT_PAGE_ADMISSION: AdmissionLimits = {
  concurrency: 4,
  maxQueued: 32,
  maxWaitMs: 10_000,
};

/**
 * Two pages at once, for the routes whose burst passed a third of an instance's memory with
 * four (bench/cold_path.ts, 8 in flight on a 279 KiB news page). `/summary` with `/read`:
 * parse5's tree, 272 MiB with four. `/metadata`: 294-326 MiB in 2 of 21 runs with four (451
 * with 64 in flight), when a major collection started mid-burst counted what the four running
 * requests allocated meanwhile as live and V8 let the heap grow from that to ~200 MB; with two,
 * 177-209 MiB in 33 runs, for 10-15% less throughput in the burst.
 */
export const NARROW_PAGE_ADMISSION: AdmissionLimits = { ...DEFAULT_PAGE_ADMISSION, concurrency: 2 };

/** The admission limits from `PAGE_CONCURRENCY`, `PAGE_QUEUE` and `PAGE_QUEUE_WAIT_MS`. */
export function admissionFromEnv(
  env: Env,
  defaults: AdmissionLimits = DEFAULT_PAGE_ADMISSION,
): AdmissionLimits {
  return {
    concurrency: env.int("PAGE_CONCURRENCY", defaults.concurrency, 1, 1_000),
    maxQueued: env.int("PAGE_QUEUE", defaults.maxQueued, 0, 100_000),
    maxWaitMs: env.int("PAGE_QUEUE_WAIT_MS", defaults.maxWaitMs, 0, 600_000),
  };
}

/** Why a request was not admitted. */
export class BusyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "BusyError";
  }
}

/** Timers, injectable so that tests decide when a wait runs out. */
export interface Timers {
  set(callback: () => void, ms: number): unknown;
  clear(handle: unknown): void;
}

const REAL_TIMERS: Timers = {
  set: (callback, ms) => setTimeout(callback, ms),
  clear: (handle) => clearTimeout(handle as number),
};

interface Waiter {
  start(): void;
  fail(err: BusyError): void;
  timer: unknown;
}

/** A counting semaphore with a bounded, time-limited queue. */
export class Admission {
  readonly limits: AdmissionLimits;
  readonly #timers: Timers;
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(limits: AdmissionLimits = DEFAULT_PAGE_ADMISSION, timers: Timers = REAL_TIMERS) {
    this.limits = limits;
    this.#timers = timers;
  }

  /** Requests running now. */
  get active(): number {
    return this.#active;
  }

  /** Requests waiting now. */
  get queued(): number {
    return this.#queue.length;
  }

  /**
   * Runs `task` once a slot is free and gives the slot back when it settles. Rejects with
   * BusyError, without running it, when the queue is full, the wait runs out, or `signal`
   * aborts while waiting.
   */
  async run<T>(task: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    await this.#acquire(signal);
    try {
      return await task();
    } finally {
      this.#release();
    }
  }

  #acquire(signal?: AbortSignal): Promise<void> {
    const { concurrency, maxQueued, maxWaitMs } = this.limits;
    if (this.#active < concurrency) {
      this.#active++;
      return Promise.resolve();
    }
    if (this.#queue.length >= maxQueued || signal?.aborted) {
      return Promise.reject(
        new BusyError(
          `Busy: ${this.#active} pages in progress and ${this.#queue.length} waiting; ` +
            "try again shortly",
        ),
      );
    }
    return new Promise<void>((resolve, reject) => {
      const leave = () => {
        const at = this.#queue.indexOf(waiter);
        if (at >= 0) this.#queue.splice(at, 1);
        this.#timers.clear(waiter.timer);
        signal?.removeEventListener("abort", onAbort);
      };
      const onAbort = () => {
        leave();
        reject(new BusyError("Busy: the request went away while waiting"));
      };
      const waiter: Waiter = {
        start: () => {
          leave();
          resolve();
        },
        fail: (err) => {
          leave();
          reject(err);
        },
        timer: this.#timers.set(
          () =>
            waiter.fail(
              new BusyError(`Busy: no page slot free within ${maxWaitMs} ms; try again shortly`),
            ),
          maxWaitMs,
        ),
      };
      signal?.addEventListener("abort", onAbort, { once: true });
      this.#queue.push(waiter);
    });
  }

  #release(): void {
    const next = this.#queue[0];
    // The slot passes straight to the oldest waiter: `active` stays as it is.
    if (next) next.start();
    else this.#active--;
  }
}

/** Seconds a busy client is told to wait before trying again. */
export const BUSY_RETRY_AFTER_SECONDS = 1;

/**
 * Runs a route's work under `admission` (call it after validating the input, so bad input
 * still gets its 400 at once). A request turned away is the contract error `code` (the
 * route's own, e.g. 502 `FETCH_ERROR` for a page route) with the busy message and
 * `Retry-After`; a client that leaves while waiting frees its place in the queue.
 */
export async function admitted<T>(
  c: Context,
  admission: Admission,
  code: ErrorCode,
  work: () => Promise<T>,
): Promise<T> {
  try {
    return await admission.run(work, c.req.raw.signal);
  } catch (err) {
    if (!(err instanceof BusyError)) throw err;
    c.header("Retry-After", String(BUSY_RETRY_AFTER_SECONDS));
    throw new ApiError(code, err.message);
  }
}
