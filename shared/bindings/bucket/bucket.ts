/**
 * The `BUCKET` / `PUBLIC_BUCKET` bindings: an object bucket that takes streamed bodies and
 * reads back whole objects or byte ranges. Two adapters implement it: a folder on disk
 * (./fs.ts, the embedded default) and any S3-compatible store
 * (./s3.ts). Key syntax lives in ./key.ts.
 */

/** What a bucket knows about one stored object. */
export interface ObjectInfo {
  /** The object's key. */
  key: string;
  /** Size in bytes. */
  size: number;
  /** The content type recorded at upload. */
  contentType: string;
  /** The entity tag, quoted as in an HTTP `ETag` header (`"…"`). */
  etag: string;
  /** When the object was stored. */
  uploaded: Date;
}

/** An inclusive byte range already resolved against the object's size. */
export interface ByteRange {
  start: number;
  end: number;
}

/** Options of {@link ObjectBucket.put}. */
export interface PutOptions {
  /** The content type to record on the object. */
  contentType: string;
  /** The body size when the client declared it (Content-Length); a hint, not a promise. */
  size?: number;
}

/** Options of {@link ObjectBucket.get}. */
export interface GetOptions {
  /** Read only these bytes (resolved against the size that {@link ObjectBucket.head} saw). */
  range?: ByteRange;
  /**
   * The entity tag the caller based its decisions on (e.g. the range); when the stored object
   * has another one, `get` throws {@link ObjectChangedError} instead of sending other bytes.
   */
  ifMatch?: string;
}

/** An object being read: its description and its bytes (the whole object or `range`). */
export interface ObjectStream {
  info: ObjectInfo;
  /** The range the body holds; absent when it holds the whole object. */
  range?: ByteRange;
  /** The bytes; cancel it when they are not wanted, so the file or socket is released. */
  body: ReadableStream<Uint8Array>;
}

/** Options of {@link ObjectBucket.list}. */
export interface ListOptions {
  /** Only keys that start with this. */
  prefix?: string;
  /** At most this many objects (1–1000). */
  limit: number;
  /** Only keys after this one (in UTF-8 byte order): the previous page's last key. */
  after?: string;
}

/** One page of a listing. */
export interface ListPage {
  /** Objects in UTF-8 byte order of their keys. */
  objects: ObjectInfo[];
  /** The last key of this page when more may follow; null at the end. */
  next: string | null;
}

/** Where a bucket keeps its objects. */
export type BucketKind = "filesystem" | "s3";

/**
 * An object bucket. Every method throws {@link InvalidKeyError} for a key the backend cannot
 * store, {@link ObjectChangedError} from `get` as documented there, and any other error when the
 * store itself fails (callers report those as STORAGE_ERROR, without the details).
 */
export interface ObjectBucket {
  /** Which adapter this is (the filesystem default can be served directly under `/public`). */
  readonly kind: BucketKind;
  /**
   * Stores `body` under `key`, streaming it: the bytes are never held whole in memory. When the
   * stream errors, nothing is stored and a previous object under `key` stays as it was.
   */
  put(key: string, body: ReadableStream<Uint8Array>, options: PutOptions): Promise<ObjectInfo>;
  /** Reads an object (or a range of it); null when there is none under `key`. */
  get(key: string, options?: GetOptions): Promise<ObjectStream | null>;
  /** Describes an object without reading it; null when there is none under `key`. */
  head(key: string): Promise<ObjectInfo | null>;
  /** Deletes an object; false when there was none. */
  delete(key: string): Promise<boolean>;
  /** Lists objects in key order, a page at a time. */
  list(options: ListOptions): Promise<ListPage>;
}

/** A key that this bucket cannot hold (reported as 400 "Invalid key"). */
export class InvalidKeyError extends Error {
  constructor(message = "Invalid key") {
    super(message);
    this.name = "InvalidKeyError";
  }
}

/** The object changed between the caller's `head` and its `get`. */
export class ObjectChangedError extends Error {
  constructor() {
    super("Object changed while being read");
    this.name = "ObjectChangedError";
  }
}

/** The content type recorded when a request sends none (rule 8 of the contract). */
export const DEFAULT_CONTENT_TYPE = "application/octet-stream";

const ENCODER = new TextEncoder();

/** Compares keys in UTF-8 byte order, the order S3 lists them in (not UTF-16 order). */
export function compareKeys(a: string, b: string): number {
  if (a === b) return 0;
  const x = ENCODER.encode(a);
  const y = ENCODER.encode(b);
  const n = Math.min(x.length, y.length);
  for (let i = 0; i < n; i++) {
    if (x[i] !== y[i]) return x[i] - y[i];
  }
  return x.length - y.length;
}

/** Strips the weak marker and quotes of an entity tag, for comparisons. */
export function opaqueTag(etag: string): string {
  return etag.trim().replace(/^W\//, "").replace(/^"(.*)"$/, "$1");
}
