/**
 * The shared cooperative yield: long work on one request pauses now and then, so the other
 * requests of the instance are served meanwhile (one event loop serves them all).
 */

/** Lets timers and other requests run (a macrotask, not a microtask). */
export const pause = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));

/** A request's time budget: the instant it ends, and the error the work stops with then. */
export interface Budget {
  /** `performance.now()` value past which the work stops. */
  endsAt: number;
  /** The route's contract error naming the bound (thrown by the yield). */
  over: () => Error;
}

/**
 * A cooperative yield for long work on one request: `await yieldSoon()` pauses (letting
 * other requests run) once `sliceMs` have passed since the last pause, and is a cheap
 * no-op otherwise. Call it between steps and every few hundred items of a loop. With a
 * `budget`, it throws `budget.over()` once the budget is spent: the request ends at the first
 * check past it, having held the loop for at most one slice.
 */
export function cooperative(sliceMs = 25, budget?: Budget): () => Promise<void> {
  let last = performance.now();
  return async () => {
    const now = performance.now();
    if (budget && now > budget.endsAt) throw budget.over();
    if (now - last < sliceMs) return;
    await pause();
    last = performance.now();
    if (budget && last > budget.endsAt) throw budget.over();
  };
}
