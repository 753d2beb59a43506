/**
 * The `BUCKET` and `PUBLIC_BUCKET` bindings: the one face experiments import. The interface
 * and its errors (bucket.ts), key rules (key.ts), and the buckets from the environment
 * (env.ts: S3 when configured, else folders under `DATA_DIR`). The adapters (fs.ts, s3.ts)
 * load only in their own mode.
 */
export {
  type ByteRange,
  DEFAULT_CONTENT_TYPE,
  InvalidKeyError,
  type ObjectBucket,
  ObjectChangedError,
  type ObjectInfo,
  opaqueTag,
} from "./bucket.ts";
export { encodeKeyPath, isValidKey, isValidPrefix, MAX_KEY_BYTES } from "./key.ts";
export { type BucketBindings, bucketsFromEnv } from "./env.ts";
