/**
 * Bounded concurrency for browser pages: at most `max` at once, at most `maxQueued` waiting,
 * and none waiting longer than `queueTimeoutMs`. A request that cannot get a slot is turned
 * away at once instead of piling up behind a saturated browser.
 */

/** Gives a slot back; calling it again does nothing. */
export type Release = () => void;

interface Waiter {
  grant(release: Release): void;
  timer: ReturnType<typeof setTimeout>;
}

/** A counting semaphore with a bounded, time-limited queue. */
export class PageSlots {
  #active = 0;
  readonly #queue: Waiter[] = [];

  constructor(
    /** Pages open at once. */
    readonly max: number,
    /** Requests that may wait for a slot. */
    readonly maxQueued: number,
    /** How long one of them may wait. */
    readonly queueTimeoutMs: number,
  ) {}

  /** Pages open now. */
  get active(): number {
    return this.#active;
  }

  /** Requests waiting now. */
  get queued(): number {
    return this.#queue.length;
  }

  /** A slot's release function, or null when the queue is full or the wait timed out. */
  acquire(): Promise<Release | null> {
    if (this.#active < this.max) {
      this.#active++;
      return Promise.resolve(this.#releaser());
    }
    if (this.#queue.length >= this.maxQueued || this.queueTimeoutMs <= 0) {
      return Promise.resolve(null);
    }
    return new Promise((resolve) => {
      const waiter: Waiter = {
        grant: resolve,
        timer: setTimeout(() => {
          this.#queue.splice(this.#queue.indexOf(waiter), 1);
          resolve(null);
        }, this.queueTimeoutMs),
      };
      this.#queue.push(waiter);
    });
  }

  #releaser(): Release {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#queue.shift();
      if (next) {
        // The slot passes straight to the oldest waiter: `active` stays as it is.
        clearTimeout(next.timer);
        next.grant(this.#releaser());
      } else {
        this.#active--;
      }
    };
  }
}
