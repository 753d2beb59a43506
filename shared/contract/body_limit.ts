/**
 * Request bodies with a size limit that holds while they stream: the bytes are counted as
 * they arrive and the request is refused (413 INVALID_INPUT) the moment the count passes the
 * limit, with or without a `Content-Length` (a chunked body is never read whole first). Hono's
 * own `bodyLimit` buffers the body it checks; these also serve bodies that must stream on
 * (uploads), and they stop reading, so the client's remaining bytes are never taken in.
 */
import { ApiError, payloadTooLarge } from "./errors.ts";

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

/**
 * `read()` of a body, failing with {@link BodyStalledError} (and cancelling the body through
 * `cancel`) when no chunk arrives within `idleMs`.
 */
export async function readWithin<T>(
  read: Promise<T>,
  idleMs: number,
  cancel: () => Promise<void>,
): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const stalled = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      // Rejected first: cancelling settles the pending read (as done), which must not win.
      reject(new BodyStalledError(idleMs));
      cancel().catch(() => {});
    }, idleMs);
  });
  try {
    return await Promise.race([read, stalled]);
  } finally {
    clearTimeout(timer);
  }
}

/** The 413 INVALID_INPUT of a body over `maxBytes`. */
export function bodyTooLarge(maxBytes: number): ApiError {
  return payloadTooLarge("Request body", maxBytes);
}

/** Throws {@link bodyTooLarge} when the declared `Content-Length` is over `maxBytes`. */
export function checkDeclaredLength(req: Request, maxBytes: number): void {
  const declared = Number(req.headers.get("content-length"));
  if (declared > maxBytes) throw bodyTooLarge(maxBytes);
}

/**
 * The whole body of `req` (at most `maxBytes`), counted chunk by chunk: past the limit the
 * stream is cancelled and {@link bodyTooLarge} is thrown at once; a body that sends nothing
 * for `idleMs` is cancelled with {@link BodyStalledError}. An absent body is empty.
 */
export async function readBodyLimited(
  req: Request,
  maxBytes: number,
  idleMs = BODY_IDLE_TIMEOUT_MS,
): Promise<Uint8Array> {
  checkDeclaredLength(req, maxBytes);
  if (req.body === null) return new Uint8Array(0);
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { value, done } = await readWithin(reader.read(), idleMs, () => reader.cancel());
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes) {
      reader.cancel().catch(() => {});
      throw bodyTooLarge(maxBytes);
    }
    chunks.push(value);
  }
  if (chunks.length === 1) return chunks[0];
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return bytes;
}

/**
 * `body` passed through unchanged while at most `maxBytes` have gone by; the chunk that
 * passes the limit errors the stream with {@link bodyTooLarge} (and cancels the source), so
 * whoever consumes it (an upload to a bucket) fails at once instead of storing the excess.
 */
export function limitBody(
  body: ReadableStream<Uint8Array>,
  maxBytes: number,
): ReadableStream<Uint8Array> {
  let total = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        total += chunk.byteLength;
        if (total > maxBytes) controller.error(bodyTooLarge(maxBytes));
        else controller.enqueue(chunk);
      },
    }),
  );
}
