/**
 * The shared cooperative yield: long work on one request pauses now and then, so the other
 * requests of the instance are served meanwhile (one event loop serves them all).
 */

/** Lets timers and other requests run (a macrotask, not a microtask). */
export const pause = (): Promise<void> => new Promise<void>((resolve) => setTimeout(resolve, 0));

/**
 * A cooperative yield for long work on one request: `await yieldSoon()` pauses (letting
 * other requests run) once `sliceMs` have passed since the last pause, and is a cheap
 * no-op otherwise. Call it between steps and every few hundred items of a loop.
 */
export function cooperative(sliceMs = 25): () => Promise<void> {
  let last = performance.now();
  return async () => {
    if (performance.now() - last < sliceMs) return;
    await pause();
    last = performance.now();
  };
}
