/**
 * The one request-body limiter: the bytes are counted as they arrive and the body fails the
 * moment the count passes the limit (413 INVALID_INPUT, with or without a `Content-Length`; a
 * chunked body is never read whole first), when it sends nothing for a while (408), or when
 * reading it fails (400, the client broke it off). Hono's own `bodyLimit` buffers the body it
 * checks; this one also serves bodies that must stream on (uploads), and it stops reading, so
 * the client's remaining bytes are never taken in.
 *
 * The limited body is a byte stream: a consumer that reads it with a BYOB reader (the S3
 * adapter reads straight into its part buffers) has the request body read into its own buffer,
 * with no chunk allocated per read. Deno's request body is itself a byte stream, so the bytes
 * are copied once, from the socket into the consumer's buffer.
 */
import { ApiError, payloadTooLarge } from "./errors.ts";
import { idleWatch } from "./idle_watch.ts";

/**
 * The longest a request body may go without a byte (a stalled upload holds its handler, and a
 * temp file, until then). Deno.serve has no body timeout of its own.
 */
export const BODY_IDLE_TIMEOUT_MS = 30_000;

/** The error of a body that stalled: 408 (HTTP's status for it) with the contract's code. */
export class BodyStalledError extends ApiError {
  constructor(idleMs: number) {
    super("INVALID_INPUT", `Request body stalled: no bytes for ${idleMs} ms`, 408);
  }
}

/** The message of a body whose reading failed (the client's body broke off). */
export const BODY_READ_FAILED = "Request body could not be read";

/** How a body is limited beyond its size. */
export interface BodyLimitOptions {
  /** What the 413 message names: "<subject> exceeds the limit of N bytes". */
  subject?: string;
  /** The longest the body may send nothing before it fails with {@link BodyStalledError}. */
  idleMs?: number;
}

/** Throws the 413 when the declared `Content-Length` is over `maxBytes` (nothing is read). */
export function checkDeclaredLength(
  req: Request,
  maxBytes: number,
  subject = "Request body",
): void {
  const declared = Number(req.headers.get("content-length"));
  if (declared > maxBytes) throw payloadTooLarge(subject, maxBytes);
}

/** A request body with its limits. */
export interface LimitedBody {
  /** The bytes (a byte stream); fails with {@link failure} as soon as a limit is broken. */
  readonly stream: ReadableStream<Uint8Array>;
  /**
   * Why the body failed, once it has: the 413, the 408 or the 400 to answer. A consumer (a
   * bucket) may wrap the stream's error in its own, so this, not that, says what went wrong.
   */
  readonly failure: ApiError | undefined;
}

/** Chunk size for readers that bring no buffer of their own (a default reader, `pipeTo`). */
const AUTO_CHUNK = 64 * 1024;

/**
 * The most asked of the source in one read, whatever the reader's view holds. Deno 2.9's
 * request body, read through views larger than its own 64 KiB chunks, falls far behind a
 * chunked upload: measured with 5 MiB part views, 256 MiB sent by `fetch` (64 KiB chunks)
 * took 26 s of service CPU and 220 MiB of RSS; with 64 KiB reads, 2.2 s and 49 MiB. A body
 * with Content-Length is as fast either way.
 */
const MAX_SOURCE_READ = 64 * 1024;

/**
 * `source` (null: no body, an empty one) limited to `maxBytes`, as a byte stream: the read
 * that passes the limit fails the stream with the 413 and cancels the source (the rest is
 * never read); a source that sends nothing for `idleMs` is cancelled with
 * {@link BodyStalledError}; a source that errors fails the stream with a 400.
 */
export function limitBody(
  source: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  options: BodyLimitOptions = {},
): LimitedBody {
  const body = limitedReader(source, maxBytes, options);
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: AUTO_CHUNK,
    async pull(controller) {
      // With autoAllocateChunkSize every pull comes with a view to fill.
      const request = controller.byobRequest!;
      const view = request.view!;
      let result: ReadInto;
      try {
        result = await body.read(
          new Uint8Array(view.buffer as ArrayBuffer, view.byteOffset, view.byteLength),
        );
      } catch (err) {
        return controller.error(err);
      }
      const { chunk, done } = result;
      // No chunk at all: the source was cancelled under us, and the view's buffer with it.
      if (!chunk) return controller.error(new Error("request body cancelled"));
      if (done) controller.close();
      // The view's buffer may have moved into `chunk` (a BYOB read transfers it).
      request.respondWithNewView(chunk);
    },
    cancel: (reason) => body.cancel(reason),
  });
  return {
    stream,
    get failure() {
      return body.failure;
    },
  };
}

/**
 * The whole body of `req` (at most `maxBytes`, an absent body is empty), limited as
 * {@link limitBody} limits it; a declared `Content-Length` over the limit is refused unread.
 */
export async function readBodyLimited(
  req: Request,
  maxBytes: number,
  idleMs = BODY_IDLE_TIMEOUT_MS,
): Promise<Uint8Array> {
  checkDeclaredLength(req, maxBytes);
  // Read straight into one buffer, grown as needed (not through limitBody's stream: that
  // layer doubled the time of a small JSON body).
  const body = limitedReader(req.body, maxBytes, { idleMs });
  let buffer = new ArrayBuffer(Math.min(maxBytes + 1, AUTO_CHUNK));
  let length = 0;
  for (;;) {
    if (length === buffer.byteLength) buffer = buffer.transfer(length * 2);
    const { chunk, done } = await body.read(new Uint8Array(buffer, length));
    if (chunk) buffer = chunk.buffer;
    if (done) break;
    length += chunk!.byteLength;
  }
  return new Uint8Array(buffer, 0, length);
}

/**
 * Reads of `source` into given views, counted and timed: a read fails (and the source is
 * cancelled) with the 413 once more than `maxBytes` arrived, with {@link BodyStalledError}
 * after `idleMs` without a byte, and with the 400 when the source errors; `failure` keeps it.
 */
function limitedReader(
  source: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  { subject = "Request body", idleMs = BODY_IDLE_TIMEOUT_MS }: BodyLimitOptions,
) {
  if (!source) {
    return {
      read: (view: Uint8Array<ArrayBuffer>): Promise<ReadInto> =>
        Promise.resolve({ chunk: view.subarray(0, 0), done: true }),
      cancel: (_reason?: unknown) => Promise.resolve(),
      failure: undefined as ApiError | undefined,
    };
  }
  const readSource = sourceReader(source);
  let received = 0;
  // A stall cancels the source, which settles the pending read (as done): `end()` tells.
  const watch = idleWatch(idleMs, () => readSource.cancel().catch(() => {}));
  const body = {
    async read(view: Uint8Array<ArrayBuffer>): Promise<ReadInto> {
      let result: ReadInto | undefined;
      watch.start();
      try {
        result = await readSource(view);
      } catch {
        // handled below, once it is known whether the watch cancelled the read
      }
      if (!watch.end()) throw body.failure = new BodyStalledError(idleMs);
      if (!result) {
        watch.stop();
        throw body.failure = new ApiError("INVALID_INPUT", BODY_READ_FAILED);
      }
      if (result.done) watch.stop();
      received += result.chunk?.byteLength ?? 0;
      if (received > maxBytes) {
        // Stop the client's upload rather than read the rest for nothing.
        watch.stop();
        readSource.cancel().catch(() => {});
        throw body.failure = payloadTooLarge(subject, maxBytes);
      }
      return result;
    },
    cancel: (reason?: unknown) => {
      watch.stop();
      return readSource.cancel(reason);
    },
    failure: undefined as ApiError | undefined,
  };
  return body;
}

/** What a read into a view gave: the filled part of the view (its buffer possibly moved). */
interface ReadInto {
  chunk?: Uint8Array<ArrayBuffer>;
  done: boolean;
}

/**
 * Reads `source` into a given view: with a BYOB reader when `source` is a byte stream (the
 * view's buffer is transferred and comes back in `chunk`), otherwise by copying default-reader
 * chunks into it (keeping what does not fit for the next read). A chunk is never empty unless
 * `done`.
 */
function sourceReader(source: ReadableStream<Uint8Array>) {
  let byob: ReadableStreamBYOBReader | undefined;
  let reader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    byob = source.getReader({ mode: "byob" });
  } catch {
    reader = source.getReader();
  }
  let rest: Uint8Array | undefined;
  const read = async (view: Uint8Array<ArrayBuffer>): Promise<ReadInto> => {
    if (byob) {
      const { value, done } = await byob.read(view.subarray(0, MAX_SOURCE_READ));
      return { chunk: value, done };
    }
    while (!rest || rest.byteLength === 0) {
      const { value, done } = await reader!.read();
      if (done) return { chunk: view.subarray(0, 0), done: true };
      rest = value;
    }
    const n = Math.min(rest.byteLength, view.byteLength);
    view.set(rest.subarray(0, n));
    rest = rest.subarray(n);
    return { chunk: view.subarray(0, n), done: false };
  };
  read.cancel = (reason?: unknown) => (byob ?? reader!).cancel(reason);
  return read;
}
