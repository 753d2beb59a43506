/**
 * Deadlines of S3 calls. A store that accepts connections and never answers (a frozen
 * process, a stuck proxy) would otherwise hold a request for as long as the socket lives: the
 * SDK only bounds connecting. Every call gets a total deadline (retries included), and a
 * response body read after its call returned an idle limit per read.
 */
import { idleWatch } from "../../contract/idle_watch.ts";
import { withDeadline } from "../deadline.ts";

/** How long S3 calls may take (from `S3_TIMEOUT_MS` / `S3_PART_TIMEOUT_MS`). */
export interface S3Timeouts {
  /**
   * One request without a large body (HeadObject, GetObject up to its headers, ListObjects,
   * DeleteObject, CreateMultipartUpload, AbortMultipartUpload), retries included; also the
   * longest the store may take to send the next piece of a GetObject body once it is asked for.
   */
  requestMs: number;
  /**
   * One request that carries an object's bytes or makes the store assemble them: PutObject,
   * each UploadPart, CompleteMultipartUpload.
   */
  partMs: number;
}

/** Defaults of {@link S3Timeouts}: 10 s per request, 60 s per part (5 MiB at ~85 KiB/s). */
export const DEFAULT_S3_TIMEOUTS: S3Timeouts = { requestMs: 10_000, partMs: 60_000 };

/** An S3 call that passed its deadline. */
export class S3TimeoutError extends Error {
  constructor(operation: string, ms: number) {
    super(`S3 ${operation} passed its ${ms} ms deadline`);
    this.name = "S3TimeoutError";
  }
}

/**
 * Runs `call` (an `S3Client.send` given the signal as `abortSignal`) under the shared
 * {@link withDeadline}: after `ms` the signal aborts it with {@link S3TimeoutError} (the SDK
 * destroys the socket on abort rather than letting the request finish in the background, and an
 * aborted call is not retried), and the call rejects with that error once it has settled.
 */
export function s3Call<T>(
  operation: string,
  ms: number,
  call: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  return withDeadline(call, ms, () => new S3TimeoutError(operation, ms));
}

/**
 * `source` with a limit on each read: when the source takes longer than `ms` to give the next
 * chunk, it is cancelled and the stream fails with {@link S3TimeoutError}. Time the consumer
 * spends not reading (a slow client) does not count: reads happen only when it asks
 * (the shared {@link idleWatch}).
 */
export function idleLimit(
  source: ReadableStream<Uint8Array>,
  ms: number,
  operation: string,
): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let controller: ReadableStreamDefaultController<Uint8Array>;
  const watch = idleWatch(ms, () => {
    const err = new S3TimeoutError(operation, ms);
    controller.error(err);
    reader.cancel(err).catch(() => {});
  });
  return new ReadableStream<Uint8Array>({
    start(c) {
      controller = c;
    },
    async pull() {
      watch.start();
      let result;
      try {
        result = await reader.read();
      } catch (err) {
        watch.stop();
        if (watch.end()) controller.error(err);
        return;
      }
      if (!watch.end()) return; // failed by the watch meanwhile
      if (result.done) {
        watch.stop();
        controller.close();
      } else {
        controller.enqueue(result.value);
      }
    },
    cancel(reason) {
      watch.stop();
      return reader.cancel(reason);
    },
  }, { highWaterMark: 0 });
}
