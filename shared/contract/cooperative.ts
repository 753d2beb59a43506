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
  /**
   * Counts only the work's own time: each pause (while other requests run) moves the end
   * later by its length, so requests served side by side do not spend each other's budget.
   */
  ownTimeOnly?: boolean;
}

/** What {@link cooperative} returns: await it between steps of long work. */
export interface YieldSoon {
  (): Promise<void>;
  /**
   * True once the slice has passed (the next call pauses) or the budget is spent: a loop that
   * must not await inside (it holds state other requests must not see) runs while this is
   * false, then awaits the yield outside.
   */
  due(): boolean;
}

/**
 * A cooperative yield for long work on one request: `await yieldSoon()` pauses (letting
 * other requests run) once `sliceMs` have passed since the last pause, and is a cheap
 * no-op otherwise. Call it between steps and every few hundred items of a loop. With a
 * `budget`, it throws `budget.over()` once the budget is spent: the request ends at the first
 * check past it, having held the loop for at most one slice.
 */
export function cooperative(sliceMs = 25, budget?: Budget): YieldSoon {
  let last = performance.now();
  let paused = 0; // time spent in pauses, not counted when the budget is own time only
  const yieldSoon = async () => {
    const now = performance.now();
    if (budget && now > budget.endsAt + paused) throw budget.over();
    if (now - last < sliceMs) return;
    await pause();
    last = performance.now();
    if (budget?.ownTimeOnly) paused += last - now;
    if (budget && last > budget.endsAt + paused) throw budget.over();
  };
  const due = () => {
    const now = performance.now();
    return now - last >= sliceMs || (!!budget && now > budget.endsAt + paused);
  };
  return Object.assign(yieldSoon, { due });
}

/** `items.map(fn)`, awaiting `yieldSoon` every 256 items (for long lists of small steps). */
export async function mapSoon<T, R>(
  items: readonly T[],
  fn: (item: T, index: number) => R,
  yieldSoon: () => Promise<void>,
): Promise<R[]> {
  const out: R[] = [];
  for (let i = 0; i < items.length; i++) {
    if ((i & 255) === 255) await yieldSoon();
    out.push(fn(items[i], i));
  }
  return out;
}
