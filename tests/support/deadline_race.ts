/**
 * Deadline tests without an absolute wall-clock bound. A call against something that stays
 * silent (a hanging server, a stalled body) must be ended by its own deadline, not by the other
 * side and not never. {@link endedByDeadline} races the call against a reference timer started
 * with it on the same event loop, due `factor` times later than the deadline, or when a finite
 * silence would end: timers fire in the order they are due however loaded the machine is, so the
 * deadline's timer fires first, and the call loses only if something else (or nothing) ends it.
 * A passing call settles at its deadline; only a broken deadline waits for the reference.
 */
import { AssertionError } from "node:assert";

/** How much later than the deadline the reference fires, unless the test names it. */
export const REFERENCE_FACTOR = 20;

/**
 * `work`'s outcome (a promise, or what Hono's `app.request` may give, a value), or an AssertionError if `referenceMs` (default: {@link REFERENCE_FACTOR}
 * times `deadlineMs`) passes first. Give `referenceMs` when the other side's silence is finite
 * (a server that answers after some delay): the reference is then the moment it would answer,
 * so settling first shows the deadline, not the answer, ended the call.
 */
export function endedByDeadline<T>(
  work: T | Promise<T>,
  deadlineMs: number,
  referenceMs = deadlineMs * REFERENCE_FACTOR,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const reference = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () =>
        reject(
          new AssertionError({
            message: `still pending when the ${referenceMs} ms reference fired: ` +
              `the ${deadlineMs} ms deadline did not end the call`,
          }),
        ),
      referenceMs,
    );
  });
  return Promise.race([Promise.resolve(work), reference]).finally(() => clearTimeout(timer));
}
