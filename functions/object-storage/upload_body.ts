/**
 * The request body on its way to a bucket: counted as it streams, cut off once it passes the
 * size limit, and able to tell afterwards why an upload failed (too large, or the client's
 * body broke off) as opposed to the bucket failing.
 */

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

/** Wraps `source` (null: no body, an empty object) so that at most `maxBytes` pass. */
export function guardBody(
  source: ReadableStream<Uint8Array> | null,
  maxBytes: number,
): GuardedBody {
  const state = { tooLarge: false, readFailed: false };
  if (!source) {
    return { ...state, stream: new ReadableStream({ start: (c) => c.close() }) };
  }
  const reader = source.getReader();
  let received = 0;
  const stream = new ReadableStream<Uint8Array>({
    async pull(controller) {
      let result: ReadableStreamReadResult<Uint8Array>;
      try {
        result = await reader.read();
      } catch (err) {
        state.readFailed = true;
        controller.error(err);
        return;
      }
      if (result.done) {
        controller.close();
        return;
      }
      received += result.value.byteLength;
      if (received > maxBytes) {
        state.tooLarge = true;
        controller.error(new BodyTooLargeError(maxBytes));
        // Stop the client's upload rather than read the rest for nothing.
        reader.cancel().catch(() => {});
        return;
      }
      controller.enqueue(result.value);
    },
    cancel(reason) {
      return reader.cancel(reason);
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
