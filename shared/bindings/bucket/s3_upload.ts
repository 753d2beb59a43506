/**
 * Streaming a body into an S3-compatible bucket with bounded memory: one PutObject when the
 * body fits in the first part, otherwise a multipart upload whose parts are read straight into
 * part buffers from a {@link PartBufferPool}: at most `queueSize` per upload (the parts in
 * flight, one of them still filling), reused part after part and upload after upload.
 *
 * Why not `@aws-sdk/lib-storage`'s `Upload`: it collects the stream's chunks and
 * `Buffer.concat`s them into a fresh buffer per part, so a 1 GiB upload allocates 1 GiB of
 * chunks plus 1 GiB of parts, and the service's memory follows the garbage collector rather
 * than the queue size. Here a byte stream (Deno's request body, and the object-storage body
 * guard) is read with a BYOB reader into the part buffer itself, 64 KiB at a time: no
 * allocation per chunk, one copy from the socket to the part.
 *
 * On any failure (the body errors, a part or the completion fails or passes its deadline) the
 * body is cancelled, the parts in flight are waited for, and the multipart upload is aborted, so
 * no parts are kept. Every call has a deadline (./s3_deadline.ts): `partMs` for PutObject, each
 * UploadPart and CompleteMultipartUpload, `requestMs` for the others.
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
import { DEFAULT_S3_TIMEOUTS, s3Call, type S3Timeouts } from "./s3_deadline.ts";

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
  /** Where part buffers come from and go back to; default, a pool for this upload alone. */
  pool?: PartBufferPool;
  /** Deadlines of the calls (default {@link DEFAULT_S3_TIMEOUTS}). */
  timeouts?: S3Timeouts;
}

/**
 * Part buffers, reused from one part and one upload to the next: a large upload then
 * allocates nothing after its first parts, and the allocator is not left with freed 5 MiB
 * blocks to fragment. At most `keep` idle buffers are kept; the rest go to the collector.
 */
export class PartBufferPool {
  readonly #idle: ArrayBuffer[] = [];

  /** Buffers of `size` bytes, keeping at most `keep` of them when idle. */
  constructor(readonly size: number, readonly keep: number) {}

  /** A buffer of `size` bytes (its contents are whatever the last user left). */
  take(): ArrayBuffer {
    return this.#idle.pop() ?? new ArrayBuffer(this.size);
  }

  /** Hands a buffer back (a detached or foreign one is ignored). */
  give(buffer: ArrayBuffer): void {
    if (buffer.byteLength !== this.size || this.#idle.length >= this.keep) return;
    this.#idle.push(buffer);
  }

  /** Idle buffers held. */
  get idle(): number {
    return this.#idle.length;
  }
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
/**
 * The most one BYOB read asks for. Deno 2.9's request body falls far behind a chunked upload
 * when read through views larger than its own 64 KiB chunks (see
 * shared/contract/body_limit.ts for the figures), so parts are filled 64 KiB at a time.
 */
const MAX_READ = 64 * 1024;

/** Uploads `body` as `key`; nothing is stored when it fails. */
export async function uploadStream(
  body: ReadableStream<Uint8Array>,
  options: StreamUploadOptions,
): Promise<StreamUploadResult> {
  const { client, partSize, queueSize } = options;
  const target = { Bucket: options.bucket, Key: options.key };
  const source = new PartSource(body);
  const pool = options.pool ?? new PartBufferPool(partSize, queueSize);
  if (pool.size !== partSize) throw new Error("the pool's buffers are not partSize bytes");
  const takeBuffer = () => pool.take();
  const { requestMs, partMs } = options.timeouts ?? DEFAULT_S3_TIMEOUTS;

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
      const out = await s3Call("PutObject", partMs, (abortSignal) =>
        client.send(
          new PutObjectCommand({
            ...target,
            ContentType: options.contentType,
            Body: part,
            ContentLength: part.byteLength,
          }),
          { abortSignal },
        ));
      pool.give(part.buffer); // (the small first buffer is not the pool's: ignored)
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
    const created = await s3Call(
      "CreateMultipartUpload",
      requestMs,
      (abortSignal) =>
        client.send(
          new CreateMultipartUploadCommand({ ...target, ContentType: options.contentType }),
          { abortSignal },
        ),
    );
    uploadId = created.UploadId;
    if (!uploadId) throw new Error("CreateMultipartUpload returned no UploadId");
    for (let number = 1;; number++) {
      if (number > options.maxParts) {
        throw new Error(`body needs more than ${options.maxParts} parts`);
      }
      size += part.byteLength;
      const buffer = part.buffer;
      const id = uploadId;
      const body = part;
      const sent: Promise<void> = s3Call(
        `UploadPart ${number}`,
        partMs,
        (abortSignal) =>
          client.send(
            new UploadPartCommand({
              ...target,
              UploadId: id,
              PartNumber: number,
              Body: body,
              ContentLength: body.byteLength,
            }),
            { abortSignal },
          ),
      ).then(
        (out) => {
          completed.push({ PartNumber: number, ETag: out.ETag });
          pool.give(buffer); // the part is sent: its buffer takes the next one
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
      if (part.byteLength === 0) {
        pool.give(part.buffer);
        break; // the body ended on a part boundary
      }
    }
    await Promise.all(inFlight);
    if (failure) throw failure.error;
    completed.sort((a, b) => a.PartNumber! - b.PartNumber!);
    const id = uploadId;
    // The store assembles the parts now: as long as a part may take.
    const out = await s3Call("CompleteMultipartUpload", partMs, (abortSignal) =>
      client.send(
        new CompleteMultipartUploadCommand({
          ...target,
          UploadId: id,
          MultipartUpload: { Parts: completed },
        }),
        { abortSignal },
      ));
    return { etag: out.ETag ?? '""', size };
  } catch (err) {
    await source.cancel(err);
    // Parts still uploading would outlive an abort sent now; wait for them (they never reject).
    await Promise.all(inFlight);
    if (uploadId) {
      const id = uploadId;
      await s3Call(
        "AbortMultipartUpload",
        requestMs,
        (abortSignal) =>
          client.send(new AbortMultipartUploadCommand({ ...target, UploadId: id }), {
            abortSignal,
          }),
      ).catch(() => {
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
          new Uint8Array(buffer, start + filled, Math.min(length - filled, MAX_READ)),
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
