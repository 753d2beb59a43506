/**
 * Resolves once `signal` aborts (at once if it already has): a fake's "hang" answer waits on
 * its closing signal, so that closing the fake ends the requests it holds.
 */
export function untilAborted(signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    signal.addEventListener("abort", () => resolve(), { once: true });
  });
}
