/**
 * Deadlines for binding calls: a call that has not settled in time rejects with a
 * {@link DeadlineError}, so a hung dependency costs a request its deadline, never more.
 */

/** A binding call that did not settle within its deadline. */
export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/**
 * `promise`, or a rejection with DeadlineError once `ms` have passed. The timer is cleared
 * as soon as the promise settles (no timer outlives the call). The call itself is not
 * cancelled (give the client its own abort signal where it takes one).
 */
export function withDeadline<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new DeadlineError(what, ms)), ms);
  });
  return Promise.race([promise, expired]).finally(() => clearTimeout(timer));
}
