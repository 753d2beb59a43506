/**
 * Deadlines for calls to things that can hang (a binding, a browser): a call that has not
 * settled in time rejects, so a hung dependency costs a request its deadline, never more. One
 * function for every caller: the libSQL and cache calls, the S3 requests, the screenshot's
 * navigation and capture.
 */

/** A binding call that did not settle within its deadline. */
export class DeadlineError extends Error {
  constructor(what: string, ms: number) {
    super(`${what} did not answer within ${ms} ms`);
    this.name = "DeadlineError";
  }
}

/** What a deadline rejects with: a {@link DeadlineError} naming the call, or the caller's error. */
export type DeadlineReason = string | (() => Error);

/**
 * `work`, or a rejection once `ms` have passed: with a {@link DeadlineError} naming `reason`
 * when it is a string, else with the error `reason()` makes. The timer is cleared as soon as
 * the work settles (no timer outlives the call).
 *
 * - `work` a promise: it is not cancelled (give the client its own abort signal where it takes
 *   one); the rejection comes at the deadline.
 * - `work` a function: it is called with an AbortSignal that is aborted with the error at the
 *   deadline (the AWS SDK then destroys the socket instead of finishing in the background), and
 *   the rejection comes when the aborted call has settled, so nothing it holds (an upload's
 *   part buffer) is still in use after it.
 */
export function withDeadline<T>(
  work: Promise<T> | ((signal: AbortSignal) => Promise<T>),
  ms: number,
  reason: DeadlineReason,
): Promise<T> {
  const error = () => typeof reason === "string" ? new DeadlineError(reason, ms) : reason();
  if (typeof work === "function") return abortAtDeadline(work, ms, error);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(error()), ms);
  });
  return Promise.race([work, expired]).finally(() => clearTimeout(timer));
}

async function abortAtDeadline<T>(
  call: (signal: AbortSignal) => Promise<T>,
  ms: number,
  error: () => Error,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(error()), ms);
  try {
    return await call(controller.signal);
  } catch (err) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
