/**
 * An idle deadline on a stream's reads: each read that takes longer than `ms` to settle calls
 * `onIdle` (which cancels the source, settling the read). Time between reads (a consumer that
 * is slow to ask) does not count. One timer checks the pending read's start time and is
 * re-armed only when it fires, rather than a timer and a promise race per read: those cost a
 * third more CPU than the bytes themselves on a fast source (bench/object_download.ts).
 * Used by request bodies (./body_limit.ts) and S3 response bodies (bindings/bucket).
 */
export interface IdleWatch {
  /** A read starts now. */
  start(): void;
  /** The read settled: true if in time, false if `onIdle` was called for it. */
  end(): boolean;
  /** No more reads (done, failed or cancelled): the timer is cleared. */
  stop(): void;
}

/** Watches reads for `ms` of idleness; see {@link IdleWatch}. */
export function idleWatch(ms: number, onIdle: () => void): IdleWatch {
  let readSince = 0; // when the pending read started; 0 when none is pending
  let timer: ReturnType<typeof setTimeout> | undefined;
  let idled = false;
  const check = () => {
    timer = undefined;
    if (!readSince) return; // the next read arms it again
    const left = readSince + ms - performance.now();
    if (left > 0) {
      timer = setTimeout(check, left);
      return;
    }
    readSince = 0;
    idled = true;
    onIdle();
  };
  return {
    start() {
      readSince = performance.now();
      timer ??= setTimeout(check, ms);
    },
    end() {
      readSince = 0;
      return !idled;
    },
    stop() {
      clearTimeout(timer);
      timer = undefined;
      readSince = 0;
    },
  };
}
