/**
 * The S3 adapter of `BUCKET` / `PUBLIC_BUCKET`: any S3-compatible store (AWS S3, R2, MinIO,
 * s3rver…) through `@aws-sdk/client-s3`. Uploads stream through ./s3_upload.ts: one PutObject
 * for a small body, a multipart upload over a few reused part buffers for a large one, aborted
 * when anything fails so no parts are left behind. Every call has a deadline (./s3_deadline.ts).
 */
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadObjectCommand,
  ListObjectsCommand,
  S3Client,
} from "@aws-sdk/client-s3";
import { FetchHttpHandler } from "@smithy/fetch-http-handler";
import { NodeHttpHandler } from "@smithy/node-http-handler";
import {
  DEFAULT_CONTENT_TYPE,
  type GetOptions,
  InvalidKeyError,
  type ListOptions,
  type ListPage,
  type ObjectBucket,
  ObjectChangedError,
  type ObjectInfo,
  type ObjectStream,
  opaqueTag,
  type PutOptions,
} from "./bucket.ts";
import { isValidKey } from "./key.ts";
import { DEFAULT_S3_TIMEOUTS, idleLimit, s3Call, type S3Timeouts } from "./s3_deadline.ts";
import { PartBufferPool, uploadStream } from "./s3_upload.ts";

export { PartBufferPool };

/** How to reach the store (from `S3_*` variables; see ./env.ts). */
export interface S3Settings {
  /** Endpoint of an S3-compatible store; absent for AWS S3 itself. */
  endpoint?: string;
  region: string;
  /** Absent: the SDK's default chain (AWS_* variables, instance role…). */
  credentials?: { accessKeyId: string; secretAccessKey: string };
  /** `http://host/bucket/key` rather than `http://bucket.host/key` (most compatible stores). */
  forcePathStyle: boolean;
  /** Attempts per request, retries included (SDK default 3). */
  maxAttempts?: number;
  /** Deadlines of calls and the sockets' idle limit (default {@link DEFAULT_S3_TIMEOUTS}). */
  timeouts?: S3Timeouts;
}

/** The longest wait for a connection to the store (over `node:http`: see SplitHandler). */
const CONNECT_TIMEOUT_MS = 5_000;

/** Part size of multipart uploads: S3's minimum, so memory stays small. */
export const MIN_PART_SIZE = 5 * 1024 * 1024;
/** S3's limit on the parts of one upload. */
const MAX_PARTS = 10_000;
/**
 * Parts in flight at once per upload (one of them still filling). An upload holds at most
 * this many part buffers (20 MiB at the default part size), and a bucket keeps this many
 * between uploads.
 */
export const QUEUE_SIZE = 4;
/** HeadObject calls in flight at once when a listing collects content types. */
const HEAD_CONCURRENCY = 8;

/**
 * A client set up for S3-compatible stores: checksums only where the API requires them (many
 * stores, s3rver among them, reject the SDK's default CRC trailers), and two transports
 * ({@link SplitHandler}). The calls' own deadlines are set per call (./s3_deadline.ts).
 */
export function createS3Client(settings: S3Settings): S3Client {
  const { requestMs } = settings.timeouts ?? DEFAULT_S3_TIMEOUTS;
  return new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    credentials: settings.credentials,
    forcePathStyle: settings.forcePathStyle,
    maxAttempts: settings.maxAttempts,
    requestChecksumCalculation: "WHEN_REQUIRED",
    responseChecksumValidation: "WHEN_REQUIRED",
    requestHandler: new SplitHandler(
      new FetchHttpHandler(),
      new NodeHttpHandler({ connectionTimeout: Math.min(CONNECT_TIMEOUT_MS, requestMs) }),
    ),
  });
}

type Request = Parameters<FetchHttpHandler["handle"]>[0];
type RequestOptions = Parameters<FetchHttpHandler["handle"]>[1];

/**
 * GET and HEAD over the runtime's `fetch`, the rest (PUT and POST with bodies, DELETE) over the
 * SDK's default `node:http` handler. Why (bench/object_download.ts, bench/object_upload.ts):
 * under Deno, `node:http` parses responses in JavaScript and copies every body chunk into a web
 * stream, which halved `GET /object`'s throughput; but `fetch` sending the 5 MiB part buffers
 * took twice the service's CPU and RSS growth of `node:http` per upload. A store that is down
 * refuses connections at once either way; `node:http` also gives up connecting after 5 s.
 */
class SplitHandler {
  readonly #down: FetchHttpHandler;
  readonly #up: NodeHttpHandler;

  constructor(down: FetchHttpHandler, up: NodeHttpHandler) {
    this.#down = down;
    this.#up = up;
  }

  handle(request: Request, options?: RequestOptions) {
    const bodiless = request.method === "GET" || request.method === "HEAD";
    return bodiless ? this.#down.handle(request, options) : this.#up.handle(request, options);
  }

  updateHttpClientConfig(key: never, value: never): void {
    this.#down.updateHttpClientConfig(key, value);
    this.#up.updateHttpClientConfig(key, value);
  }

  httpHandlerConfigs() {
    return this.#up.httpHandlerConfigs();
  }

  destroy(): void {
    this.#down.destroy();
    this.#up.destroy();
  }
}

/** The part size of a bucket whose largest object is `maxObjectBytes`. */
export function partSizeFor(maxObjectBytes = 0): number {
  return Math.max(MIN_PART_SIZE, Math.ceil(maxObjectBytes / MAX_PARTS));
}

/** Options of an {@link S3Bucket}. */
export interface S3BucketOptions {
  client: S3Client;
  /** The bucket name. */
  bucket: string;
  /** The largest object that will be uploaded; sizes the parts so 10,000 of them suffice. */
  maxObjectBytes?: number;
  /** Part buffers to share with other buckets (of the same part size); default, its own. */
  pool?: PartBufferPool;
  /** Deadlines of its calls (default {@link DEFAULT_S3_TIMEOUTS}). */
  timeouts?: S3Timeouts;
}

/** A bucket in an S3-compatible store. */
export class S3Bucket implements ObjectBucket {
  /** Which adapter this is. */
  readonly kind = "s3" as const;
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #partSize: number;
  readonly #pool: PartBufferPool;
  readonly #timeouts: S3Timeouts;

  /** A bucket over a client (which the caller may share between buckets). */
  constructor(options: S3BucketOptions) {
    this.#client = options.client;
    this.#bucket = options.bucket;
    this.#partSize = partSizeFor(options.maxObjectBytes);
    this.#timeouts = options.timeouts ?? DEFAULT_S3_TIMEOUTS;
    // One upload's worth of part buffers stays allocated between uploads.
    this.#pool = options.pool?.size === this.#partSize
      ? options.pool
      : new PartBufferPool(this.#partSize, QUEUE_SIZE);
  }

  /** Streams the body up (./s3_upload.ts); a failed upload leaves no parts. */
  async put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    checkKey(key);
    const { etag, size } = await uploadStream(body, {
      client: this.#client,
      bucket: this.#bucket,
      key,
      contentType: options.contentType,
      partSize: this.#partSize,
      queueSize: QUEUE_SIZE,
      maxParts: MAX_PARTS,
      pool: this.#pool,
      timeouts: this.#timeouts,
    });
    return { key, size, contentType: options.contentType, etag, uploaded: new Date() };
  }

  /** GetObject, with `Range` and `If-Match` when asked. */
  async get(key: string, options: GetOptions = {}): Promise<ObjectStream | null> {
    checkKey(key);
    const { range, ifMatch } = options;
    let out;
    try {
      out = await this.#send("GetObject", (abortSignal) =>
        this.#client.send(
          new GetObjectCommand({
            Bucket: this.#bucket,
            Key: key,
            Range: range ? `bytes=${range.start}-${range.end}` : undefined,
            IfMatch: ifMatch,
          }),
          { abortSignal },
        ));
    } catch (err) {
      if (isMissing(err)) return null;
      if (statusOf(err) === 412) throw new ObjectChangedError();
      throw err;
    }
    const raw = out.Body?.transformToWebStream() as ReadableStream<Uint8Array> | undefined;
    // A store that stops sending mid-body fails the read instead of holding the client.
    const body = raw && idleLimit(raw, this.#timeouts.requestMs, "GetObject body");
    const etag = out.ETag ?? '""';
    // Some stores ignore If-Match on GET; compare the tag that came back as well.
    if (ifMatch && opaqueTag(ifMatch) !== opaqueTag(etag)) {
      await body?.cancel();
      throw new ObjectChangedError();
    }
    const total = out.ContentRange?.match(/\/(\d+)$/)?.[1];
    const info: ObjectInfo = {
      key,
      size: total !== undefined ? Number(total) : out.ContentLength ?? 0,
      contentType: out.ContentType || DEFAULT_CONTENT_TYPE,
      etag,
      uploaded: out.LastModified ?? new Date(0),
    };
    return { info, range, body: body ?? new ReadableStream({ start: (c) => c.close() }) };
  }

  /** HeadObject. */
  async head(key: string): Promise<ObjectInfo | null> {
    checkKey(key);
    try {
      const out = await this.#send(
        "HeadObject",
        (abortSignal) =>
          this.#client.send(new HeadObjectCommand({ Bucket: this.#bucket, Key: key }), {
            abortSignal,
          }),
      );
      return {
        key,
        size: out.ContentLength ?? 0,
        contentType: out.ContentType || DEFAULT_CONTENT_TYPE,
        etag: out.ETag ?? '""',
        uploaded: out.LastModified ?? new Date(0),
      };
    } catch (err) {
      if (isMissing(err)) return null;
      throw err;
    }
  }

  /** HeadObject then DeleteObject (S3's delete succeeds whether or not the key exists). */
  async delete(key: string): Promise<boolean> {
    if (!(await this.head(key))) return false;
    await this.#send(
      "DeleteObject",
      (abortSignal) =>
        this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: key }), {
          abortSignal,
        }),
    );
    return true;
  }

  /**
   * ListObjects (version 1, with `Marker`: every S3-compatible store speaks it, and s3rver
   * cannot mint version-2 continuation tokens under Deno), then HeadObject per listed key for
   * its content type, which listings do not carry.
   */
  async list(options: ListOptions): Promise<ListPage> {
    const out = await this.#send("ListObjects", (abortSignal) =>
      this.#client.send(
        new ListObjectsCommand({
          Bucket: this.#bucket,
          Prefix: options.prefix || undefined,
          Marker: options.after,
          MaxKeys: options.limit,
        }),
        { abortSignal },
      ));
    const keys = (out.Contents ?? []).map((o) => o.Key).filter((k): k is string => !!k);
    const infos = await mapLimit(keys, HEAD_CONCURRENCY, (key) => this.head(key));
    return {
      // An object deleted between the listing and its HeadObject is left out.
      objects: infos.filter((info): info is ObjectInfo => info !== null),
      next: out.IsTruncated && keys.length > 0 ? keys[keys.length - 1] : null,
    };
  }

  /** A call without a large body, under the request deadline. */
  #send<T>(operation: string, call: (abortSignal: AbortSignal) => Promise<T>): Promise<T> {
    return s3Call(operation, this.#timeouts.requestMs, call);
  }
}

function checkKey(key: string): void {
  if (!isValidKey(key)) throw new InvalidKeyError();
}

function statusOf(err: unknown): number | undefined {
  return (err as { $metadata?: { httpStatusCode?: number } })?.$metadata?.httpStatusCode;
}

/** No such object (a missing bucket is a configuration fault, not a missing object). */
function isMissing(err: unknown): boolean {
  const name = (err as { name?: string })?.name;
  if (name === "NoSuchBucket") return false;
  return name === "NoSuchKey" || name === "NotFound" || statusOf(err) === 404;
}

/** `Promise.all(items.map(fn))` with at most `limit` calls in flight. */
async function mapLimit<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>) {
  const results: R[] = new Array(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}
