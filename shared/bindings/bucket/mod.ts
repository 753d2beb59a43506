/**
 * The bucket binding's public face: what an experiment may use. Experiments import this module
 * only; the adapters (./fs.ts, ./s3.ts) are loaded by {@link bucketsFromEnv} for the mode in use.
 */
export {
  type BucketKind,
  type ByteRange,
  compareKeys,
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
export { encodeKeyPath, isValidKey, isValidPrefix, keyProblem, MAX_KEY_BYTES } from "./key.ts";
export { bucketsFromEnv, type BucketsOptions, S3_TIMEOUT_BOUNDS } from "./env.ts";
export { DEFAULT_S3_TIMEOUTS, S3TimeoutError, type S3Timeouts } from "./s3_deadline.ts";
