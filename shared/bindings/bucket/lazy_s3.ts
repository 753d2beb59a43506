/**
 * An S3 bucket whose adapter, and the AWS SDK under it, loads on the bucket's first call rather
 * than at start-up: the SDK's import is most of an object-storage bundle's cold start, and
 * `GET /` never needs it.
 */
import type {
  GetOptions,
  ListOptions,
  ListPage,
  ObjectBucket,
  ObjectInfo,
  ObjectStream,
  PutOptions,
} from "./bucket.ts";

/** An `ObjectBucket` of kind `s3` that builds the real one (`load`) when first used. */
export class LazyS3Bucket implements ObjectBucket {
  readonly kind = "s3" as const;
  readonly #load: () => Promise<ObjectBucket>;

  /** `load` is called on every use; it must return the same bucket each time (memoise it). */
  constructor(load: () => Promise<ObjectBucket>) {
    this.#load = load;
  }

  /** See ObjectBucket.put. */
  async put(
    key: string,
    body: ReadableStream<Uint8Array>,
    options: PutOptions,
  ): Promise<ObjectInfo> {
    return (await this.#load()).put(key, body, options);
  }

  /** See ObjectBucket.get. */
  async get(key: string, options?: GetOptions): Promise<ObjectStream | null> {
    return (await this.#load()).get(key, options);
  }

  /** See ObjectBucket.head. */
  async head(key: string): Promise<ObjectInfo | null> {
    return (await this.#load()).head(key);
  }

  /** See ObjectBucket.delete. */
  async delete(key: string): Promise<boolean> {
    return (await this.#load()).delete(key);
  }

  /** See ObjectBucket.list. */
  async list(options: ListOptions): Promise<ListPage> {
    return (await this.#load()).list(options);
  }
}
