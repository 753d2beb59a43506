/**
 * Deadlines of S3 calls. A store that accepts connections and never answers (a frozen
 * process, a stuck proxy) would otherwise hold a request for as long as the socket lives: the
 * SDK only bounds connecting. Every call gets a total deadline (retries included), and the
 * client's sockets an idle limit that also covers a response body read after the call returned.
 */
/** How long S3 calls may take (from `S3_TIMEOUT_MS` / `S3_PART_TIMEOUT_MS`). */
export interface S3Timeouts {
  /**
   * One request without a large body (HeadObject, GetObject up to its headers, ListObjects,
   * DeleteObject, CreateMultipartUpload, AbortMultipartUpload), retries included; also the
   * longest a socket may stay silent while a body streams in either direction.
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
 * Runs `call` (an `S3Client.send` given the signal as `abortSignal`) and rejects with
 * {@link S3TimeoutError} after `ms`: the SDK destroys the socket on abort rather than letting
 * the request finish in the background, and an aborted call is not retried.
 */
export async function withDeadline<T>(
  operation: string,
  ms: number,
  call: (abortSignal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new S3TimeoutError(operation, ms)), ms);
  try {
    return await call(controller.signal);
  } catch (err) {
    if (controller.signal.aborted) throw controller.signal.reason;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}
