/**
 * The one way to write a log line: `logEvent(fields)` writes one JSON object to stderr (or to
 * the app's sink), with the time and, inside a request, its requestId, so every line of a
 * request can be found by the id its response carries.
 */
import type { AsyncLocalStorage } from "node:async_hooks";
import { type BufferedLog, bufferedLog } from "./log_buffer.ts";
import { onFirstUse } from "./lazy.ts";

/** Where log lines go (stderr by default; tests pass their own). */
export type LogSink = (line: string) => void;

let buffered: BufferedLog | undefined;

/**
 * The default sink: stderr, in batches (one write per request cost more than a cached
 * redirect itself; see log_buffer.ts). Lines wait at most 50 ms; exit flushes them.
 */
export const stderrSink: LogSink = (line) => (buffered ??= bufferedLog())(line);

/** Writes every queued line of the default sink now (before an exit). */
export function flushLog(): void {
  buffered?.flush();
}

/** What a request carries to every log line written while it runs. */
interface RequestLogContext {
  requestId: string;
  sink: LogSink;
}

/**
 * Made by the first `withRequestLog`, not at start-up: loading `node:async_hooks` starts Deno's
 * Node layer, which costs a cold start more than the rest of `GET /` (bench/bundle_cold_start.ts).
 */
let context: AsyncLocalStorage<RequestLogContext> | undefined;

/**
 * Loads `node:async_hooks` as an ES module: through `process.getBuiltinModule` it would first
 * start Deno's `process` object, which took a fresh instance 3-4x as long (90-150 ms against
 * 30-43 ms, 5 starts each on a loaded machine, 2026-11-26), before its first routed answer.
 */
const loadContext = onFirstUse(async () => {
  const { AsyncLocalStorage } = await import("node:async_hooks");
  context ??= new AsyncLocalStorage();
});

/** Runs `fn` with `requestId` and `sink` attached to every `logEvent` inside it. */
export async function withRequestLog<T>(
  requestId: string,
  sink: LogSink,
  fn: () => T | Promise<T>,
): Promise<T> {
  if (!context) await loadContext();
  return await context!.run({ requestId, sink }, fn);
}

let lastMs = 0;
let lastIso = "";
let secondStart = -1;
let secondIso = "";

/**
 * `new Date(ms).toISOString()`, built at most once per millisecond from the second's prefix,
 * which is formatted once per second (`toISOString` costs ~1 µs, a served request a few).
 */
function isoOf(ms: number): string {
  if (ms !== lastMs) {
    lastMs = ms;
    const inSecond = ms - secondStart;
    if (inSecond < 0 || inSecond >= 1000) {
      secondStart = ms - (ms % 1000);
      secondIso = new Date(secondStart).toISOString().slice(0, 20); // "YYYY-MM-DDTHH:MM:SS."
    }
    const milli = ms - secondStart;
    lastIso = secondIso + (milli < 10 ? "00" : milli < 100 ? "0" : "") + milli + "Z";
  }
  return lastIso;
}

/**
 * Writes one JSON line: `time`, then `requestId` (from the request being served, unless the
 * fields carry one), then the fields. `sink` overrides the request's sink.
 */
export function logEvent(fields: Record<string, unknown>, sink?: LogSink): void {
  // With its own sink and requestId (the request log, the shortener's hot path), the line
  // takes nothing from the request context, which is then not read (~0.1 µs a line).
  const current = sink !== undefined && "requestId" in fields ? undefined : context?.getStore();
  const line = JSON.stringify({
    time: isoOf(Date.now()),
    requestId: current?.requestId,
    ...fields,
  });
  (sink ?? current?.sink ?? stderrSink)(line);
}

/**
 * The request log line of a request answered without an error (what the request-log middleware
 * writes, and the link shortener's hot path in its place): the line `logEvent` would write for
 * `{requestId, method, path, status, durationMs, code: null}`, built without an object or a
 * `JSON.stringify` of it (on a cached redirect that was a sixth of the handler's time).
 * `requestId` and `method` must need no JSON escaping (a UUID, a sane caller's id, an HTTP
 * token); `path` is escaped. `now` is the time of the line (ms since the epoch).
 */
export function requestLine(
  requestId: string,
  method: string,
  path: string,
  status: number,
  durationMs: number,
  now: number = Date.now(),
): string {
  return `{"time":"${isoOf(now)}","requestId":"${requestId}","method":"${method}","path":${
    JSON.stringify(path)
  },"status":${status},"durationMs":${durationMs},"code":null}`;
}

/** The message of a failure, with its name when it is not a plain Error ("TypeError: …"). */
export function errorText(err: unknown): string {
  if (!(err instanceof Error)) return String(err);
  return err.name && err.name !== "Error" ? `${err.name}: ${err.message}` : err.message;
}
