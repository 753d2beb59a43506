/**
 * Whether a service's work holds its event loop: while `work` runs, `GET /` is asked again and
 * again, and the median of those latencies is compared with the work's own time in the same
 * run (a loaded machine slows both). A loop held by the work makes each `GET /` wait about as
 * long as the work.
 */

/** What {@link latenciesDuring} saw. */
export interface LoopLatency<T> {
  /** What `work` gave. */
  result: T;
  /** Each `GET /`'s time, in ms, in order. */
  latencies: number[];
  /** Their median. */
  median: number;
  /** From the work's start to its end, in ms. */
  workMs: number;
  /** The figures, for an assertion's message. */
  shown: string;
}

/**
 * Starts `work`, asks `${origin}/` until it settles (at most `maxProbes` times, `pauseMs`
 * apart), and gives the latencies with the work's time. `work` rejecting rejects this.
 */
export async function latenciesDuring<T>(
  origin: string,
  work: () => Promise<T>,
  pauseMs = 10,
  maxProbes = 400,
): Promise<LoopLatency<T>> {
  let busy = true;
  const started = performance.now();
  const running = work().finally(() => busy = false);
  const latencies: number[] = [];
  while (busy && latencies.length < maxProbes) {
    const asked = performance.now();
    await (await fetch(`${origin}/`)).body?.cancel();
    latencies.push(performance.now() - asked);
    await new Promise((r) => setTimeout(r, pauseMs));
  }
  const result = await running;
  const workMs = performance.now() - started;
  const sorted = [...latencies].sort((a, b) => a - b);
  const median = sorted[Math.floor((sorted.length - 1) / 2)] ?? NaN;
  const shown = `work ${workMs.toFixed(0)} ms; GET / ${
    latencies.map((l) => l.toFixed(0)).join(" ")
  }`;
  console.log(`GET / median ${median.toFixed(0)} ms; ${shown}`);
  return { result, latencies, median, workMs, shown };
}

/**
 * The longest stretches between two turns of a timer chain: how long the event loop was held
 * at once (a timer due at once waits for whatever runs).
 */
export function loopProbe(): () => number[] {
  const gaps: number[] = [];
  let last = performance.now();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const tick = () => {
    const now = performance.now();
    gaps.push(now - last);
    last = now;
    timer = setTimeout(tick, 0);
  };
  timer = setTimeout(tick, 0);
  return () => {
    clearTimeout(timer);
    return gaps.sort((a, b) => b - a);
  };
}
