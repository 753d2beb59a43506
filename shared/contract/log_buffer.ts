/**
 * The cheap log path every service writes through (shared/contract/log.ts's default sink): lines are queued and written to stderr together,
 * one `write` per flush instead of one synchronous write per request (which cost more than
 * the whole redirect). Flushed every `intervalMs`, when `maxBytes` are queued, and at exit.
 */

/** A log function (one JSON line per call) with an explicit flush. */
export interface BufferedLog {
  (line: string): void;
  /** Writes every queued line now. */
  flush(): void;
}

/** Default flush interval (ms): the most a line waits before it is written. */
export const LOG_FLUSH_MS = 50;

/** Default queue size (bytes, roughly) that triggers an immediate flush. */
export const LOG_MAX_BYTES = 64 * 1024;

/**
 * Queues lines for `write` (default: stderr). The `unload` event flushes what is left when the
 * process exits normally.
 *
 * The timer is `AbortSignal.timeout`, not `setTimeout`: Deno's `setTimeout` is Node's
 * (`node:timers`), and its first use loads Deno's Node layer, which cost every cold start
 * ~12 ms on the first log line (bench/bundle_cold_start.ts). It cannot be cleared: a flush
 * forgets it, and it does nothing when it fires. It keeps a process alive for one interval.
 */
export function bufferedLog(
  write: (bytes: Uint8Array) => void = (bytes) => writeAll(Deno.stderr, bytes),
  intervalMs: number = LOG_FLUSH_MS,
  maxBytes: number = LOG_MAX_BYTES,
): BufferedLog {
  const encoder = new TextEncoder();
  let queued: string[] = [];
  let size = 0;
  let timer: AbortSignal | undefined;

  const flush = () => {
    timer = undefined;
    if (queued.length === 0) return;
    const text = queued.join("\n") + "\n";
    queued = [];
    size = 0;
    write(encoder.encode(text));
  };

  const log = ((line: string) => {
    queued.push(line);
    size += line.length + 1;
    if (size >= maxBytes) flush();
    else if (timer === undefined) {
      const t = timer = AbortSignal.timeout(intervalMs);
      t.addEventListener("abort", () => t === timer && flush());
    }
  }) as BufferedLog;
  log.flush = flush;
  globalThis.addEventListener("unload", flush);
  return log;
}

/** Writes every byte synchronously (a pipe may take a large buffer in several writes). */
function writeAll(file: { writeSync(p: Uint8Array): number }, bytes: Uint8Array): void {
  let offset = 0;
  while (offset < bytes.length) offset += file.writeSync(bytes.subarray(offset));
}
