/**
 * Streaming a body into an S3-compatible bucket with bounded memory: one PutObject when the
 * body fits in the first part, otherwise a multipart upload whose parts are read straight into
 * a small pool of part buffers (`queueSize + 1` of them, reused part after part).
 *
 * Why not `@aws-sdk/lib-storage`'s `Upload`: it collects the stream's chunks and
 * `Buffer.concat`s them into a fresh buffer per part, so a 1 GiB upload allocates 1 GiB of
 * chunks plus 1 GiB of parts, and the service's memory follows the garbage collector rather
 * than the queue size. Here a byte stream (Deno's request body, and the object-storage body
 * guard) is read with a BYOB reader into the part buffer itself: no allocation per chunk, one
 * copy from the socket to the part.
 *
 * On any failure (the body errors, a part or the completion fails) the body is cancelled, the
 * parts in flight are waited for, and the multipart upload is aborted, so no parts are kept.
 */
import {
  AbortMultipartUploadCommand,
  type CompletedPart,
  CompleteMultipartUploadCommand,
  CreateMultipartUploadCommand,
  PutObjectCommand,
  type S3Client,
  UploadPartCommand,
} from "@aws-sdk/client-s3";

/** Where and how to upload. */
export interface StreamUploadOptions {
  client: S3Client;
  bucket: string;
  key: string;
  contentType: string;
  /** Bytes per part (all parts but the last); at least S3's 5 MiB minimum. */
  partSize: number;
  /** Parts uploading at once. */
  queueSize: number;
  /** The most parts one upload may have (S3: 10,000). */
  maxParts: number;
}

/** What was stored. */
export interface StreamUploadResult {
  /** The entity tag S3 returned, quoted. */
  etag: string;
  /** Bytes stored. */
  size: number;
}

/** The first read goes into a buffer this small, so that a small body never costs a part. */
const FIRST_READ = 64 * 1024;

/** Uploads `body` as `key`; nothing is stored when it fails. */
export async function uploadStream(
  body: ReadableStream<Uint8Array>,
  options: StreamUploadOptions,
): Promise<StreamUploadResult> {
  const { client, partSize, queueSize } = options;
  const target = { Bucket: options.bucket, Key: options.key };
  const source = new PartSource(body);
  const pool: ArrayBuffer[] = [];
  const takeBuffer = () => pool.pop() ?? new ArrayBuffer(partSize);

  // The first part: a small read first; only a body that outgrows it gets a part buffer.
  let part: Uint8Array<ArrayBuffer>;
  try {
    part = await source.fill(new Uint8Array(FIRST_READ));
    if (!source.done) {
      const buffer = new Uint8Array(takeBuffer());
      buffer.set(part);
      part = await source.fill(buffer, part.byteLength);
    }
  } catch (err) {
    await source.cancel(err);
    throw err;
  }
  if (source.done) {
    try {
      const out = await client.send(
        new PutObjectCommand({
          ...target,
          ContentType: options.contentType,
          Body: part,
          ContentLength: part.byteLength,
        }),
      );
      return { etag: out.ETag ?? '""', size: part.byteLength };
    } catch (err) {
      await source.cancel(err);
      throw err;
    }
  }

  let uploadId: string | undefined;
  const inFlight = new Set<Promise<void>>();
  const completed: CompletedPart[] = [];
  let failure: { error: unknown } | undefined;
  let size = 0;
  try {
    const created = await client.send(
      new CreateMultipartUploadCommand({ ...target, ContentType: options.contentType }),
    );
    uploadId = created.UploadId;
    if (!uploadId) throw new Error("CreateMultipartUpload returned no UploadId");
    for (let number = 1;; number++) {
      if (number > options.maxParts) {
        throw new Error(`body needs more than ${options.maxParts} parts`);
      }
      size += part.byteLength;
      const buffer = part.buffer;
      const sent: Promise<void> = client.send(
        new UploadPartCommand({
          ...target,
          UploadId: uploadId,
          PartNumber: number,
          Body: part,
          ContentLength: part.byteLength,
        }),
      ).then(
        (out) => {
          completed.push({ PartNumber: number, ETag: out.ETag });
          pool.push(buffer); // the part is sent: its buffer takes the next one
        },
        (error) => {
          failure ??= { error };
        },
      ).finally(() => inFlight.delete(sent));
      inFlight.add(sent);
      if (source.done) break;
      while (inFlight.size >= queueSize && !failure) await Promise.race(inFlight);
      if (failure) throw failure.error;
      part = await source.fill(new Uint8Array(takeBuffer()));
      if (part.byteLength === 0) break; // the body ended on a part boundary
    }
    await Promise.all(inFlight);
    if (failure) throw failure.error;
    completed.sort((a, b) => a.PartNumber! - b.PartNumber!);
    const out = await client.send(
      new CompleteMultipartUploadCommand({
        ...target,
        UploadId: uploadId,
        MultipartUpload: { Parts: completed },
      }),
    );
    return { etag: out.ETag ?? '""', size };
  } catch (err) {
    await source.cancel(err);
    // Parts still uploading would outlive an abort sent now; wait for them (they never reject).
    await Promise.all(inFlight);
    if (uploadId) {
      await client.send(new AbortMultipartUploadCommand({ ...target, UploadId: uploadId }))
        .catch(() => {
          // The original failure is the one to report; an unaborted upload's parts are
          // removed by the store's lifecycle rules (AbortIncompleteMultipartUpload).
        });
    }
    throw err;
  }
}

/**
 * Fills buffers from a stream: a byte stream through a BYOB reader, straight into the buffer
 * (which the read transfers and hands back); any other stream by copying its chunks.
 */
class PartSource {
  /** True once the stream has ended. */
  done = false;
  readonly #byob?: ReadableStreamBYOBReader;
  readonly #reader?: ReadableStreamDefaultReader<Uint8Array>;
  #rest?: Uint8Array;

  constructor(stream: ReadableStream<Uint8Array>) {
    try {
      this.#byob = stream.getReader({ mode: "byob" });
    } catch {
      this.#reader = stream.getReader();
    }
  }

  /**
   * Reads into `view` from `offset` until it is full or the stream ends; returns the filled
   * start of the view, over the buffer as it is now (a BYOB read moves it).
   */
  async fill(view: Uint8Array<ArrayBuffer>, offset = 0): Promise<Uint8Array<ArrayBuffer>> {
    let buffer = view.buffer;
    const start = view.byteOffset;
    const length = view.byteLength;
    let filled = offset;
    while (filled < length && !this.done) {
      if (this.#byob) {
        const { value, done } = await this.#byob.read(
          new Uint8Array(buffer, start + filled, length - filled),
        );
        if (!value) throw new Error("body cancelled");
        buffer = value.buffer;
        if (done) this.done = true;
        filled += value.byteLength;
      } else {
        if (!this.#rest || this.#rest.byteLength === 0) {
          const { value, done } = await this.#reader!.read();
          if (done) {
            this.done = true;
            break;
          }
          this.#rest = value;
        }
        const n = Math.min(this.#rest.byteLength, length - filled);
        new Uint8Array(buffer, start + filled, n).set(this.#rest.subarray(0, n));
        this.#rest = this.#rest.subarray(n);
        filled += n;
      }
    }
    return new Uint8Array(buffer, start, filled);
  }

  /** Cancels the stream (a no-op when it already ended or failed). */
  async cancel(reason: unknown): Promise<void> {
    await (this.#byob ?? this.#reader!).cancel(reason).catch(() => {});
  }
}
