/**
 * The request body on its way to a bucket: counted as it streams, cut off once it passes the
 * size limit, and able to tell afterwards why an upload failed (too large, or the client's
 * body broke off) as opposed to the bucket failing.
 *
 * The guarded stream is a byte stream: a bucket that reads it with a BYOB reader (the S3
 * adapter reads straight into its part buffers) has the request body read into its own buffer,
 * with no chunk allocated per read. Deno's request body is itself a byte stream, so the bytes
 * are copied once, from the socket into the part.
 */

import { BODY_IDLE_TIMEOUT_MS, readWithin } from "../../shared/contract/body_limit.ts";

/** A body wrapped for upload. */
export interface GuardedBody {
  /** The bytes to hand to the bucket; errors once more than the limit has arrived. */
  readonly stream: ReadableStream<Uint8Array>;
  /** True once the body passed the limit. */
  readonly tooLarge: boolean;
  /** True when reading the client's body failed (it was cut off). */
  readonly readFailed: boolean;
}

/** The error the guarded stream fails with when the body passes the limit. */
export class BodyTooLargeError extends Error {
  constructor(readonly maxBytes: number) {
    super(`Object exceeds ${maxBytes} bytes`);
    this.name = "BodyTooLargeError";
  }
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
 * Wraps `source` (null: no body, an empty object) so that at most `maxBytes` pass, and a body
 * that sends nothing for `idleMs` fails as a read failure (the client's body broke off).
 */
export function guardBody(
  source: ReadableStream<Uint8Array> | null,
  maxBytes: number,
  idleMs = BODY_IDLE_TIMEOUT_MS,
): GuardedBody {
  const state = { tooLarge: false, readFailed: false };
  if (!source) {
    return { ...state, stream: new ReadableStream({ type: "bytes", start: (c) => c.close() }) };
  }
  const read = sourceReader(source);
  let received = 0;
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: AUTO_CHUNK,
    async pull(controller) {
      // With autoAllocateChunkSize every pull comes with a view to fill.
      const request = controller.byobRequest!;
      const view = request.view!;
      let result: ReadInto;
      try {
        result = await readWithin(
          read(new Uint8Array(view.buffer as ArrayBuffer, view.byteOffset, view.byteLength)),
          idleMs,
          () => read.cancel(),
        );
      } catch (err) {
        state.readFailed = true;
        controller.error(err);
        return;
      }
      const { chunk, done } = result;
      if (done) {
        // No chunk at all: the source was cancelled under us, and the view's buffer with it.
        if (!chunk) return controller.error(new Error("request body cancelled"));
        controller.close();
        // The view's buffer moved into `chunk` (a BYOB read transfers it).
        request.respondWithNewView(chunk);
        return;
      }
      received += chunk!.byteLength;
      if (received > maxBytes) {
        state.tooLarge = true;
        controller.error(new BodyTooLargeError(maxBytes));
        // Stop the client's upload rather than read the rest for nothing.
        read.cancel().catch(() => {});
        return;
      }
      request.respondWithNewView(chunk!);
    },
    cancel(reason) {
      return read.cancel(reason);
    },
  });
  return {
    stream,
    get tooLarge() {
      return state.tooLarge;
    },
    get readFailed() {
      return state.readFailed;
    },
  };
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
