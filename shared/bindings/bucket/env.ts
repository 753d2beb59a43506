/**
 * Building `BUCKET` and `PUBLIC_BUCKET` from the environment. With `S3_ENDPOINT` or S3
 * credentials set, both are buckets of that S3-compatible store, named by `BUCKET` and
 * `PUBLIC_BUCKET`; otherwise both are folders under `<DATA_DIR>/buckets/` (named by the same
 * variables, default `private` and `public`). A malformed value is a ConfigError.
 */
import { join } from "node:path";
import type { ObjectBucket } from "./bucket.ts";
import { FsBucket } from "./fs.ts";
import type { S3Settings } from "./s3.ts";
import { ConfigError, type Env } from "../../contract/config.ts";

/** `MAX_OBJECT_BYTES` when unset: 100 MiB. */
export const DEFAULT_MAX_OBJECT_BYTES = 100 * 1024 * 1024;
/** The largest `MAX_OBJECT_BYTES` accepted: S3's 5 TiB object limit. */
export const MAX_MAX_OBJECT_BYTES = 5 * 1024 ** 4;
/** Folder names of the filesystem default when `BUCKET` / `PUBLIC_BUCKET` are unset. */
export const DEFAULT_BUCKET_NAMES = { private: "private", public: "public" } as const;

// S3's bucket-name rule; for folders it also keeps the name a single safe path segment.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The object-storage bindings. */
export interface BucketBindings {
  /** The private bucket (reachable only through the service). */
  BUCKET: ObjectBucket;
  /** The public bucket (reachable through direct URLs). */
  PUBLIC_BUCKET: ObjectBucket;
  /** Base address of the public bucket's direct URLs, without a trailing `/`. */
  PUBLIC_BUCKET_URL?: string;
  /** The largest accepted upload, in bytes. */
  maxObjectBytes: number;
}

/** The S3 settings, or undefined when no S3 store is configured. */
export function s3SettingsFromEnv(env: Env): S3Settings | undefined {
  const endpoint = env.url("S3_ENDPOINT");
  const keys = env.pair("S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY");
  if (!endpoint && !keys) return undefined;
  const region = env.string("S3_REGION", "us-east-1");
  if (!/^[a-z0-9-]{1,40}$/.test(region)) {
    throw new ConfigError(`S3_REGION must be a region name like us-east-1, got "${region}"`);
  }
  return {
    endpoint,
    region,
    credentials: keys ? { accessKeyId: keys[0], secretAccessKey: keys[1] } : undefined,
    // Compatible stores mostly need path-style addressing; AWS itself prefers virtual hosts.
    forcePathStyle: env.bool("S3_FORCE_PATH_STYLE", endpoint !== undefined),
  };
}

/**
 * Reads the bucket bindings; rejects with ConfigError on a malformed or missing value. The AWS
 * SDK is loaded only when S3 is configured: it would double the filesystem default's cold start.
 */
export async function bucketsFromEnv(env: Env): Promise<BucketBindings> {
  const maxObjectBytes = env.int(
    "MAX_OBJECT_BYTES",
    DEFAULT_MAX_OBJECT_BYTES,
    1,
    MAX_MAX_OBJECT_BYTES,
  );
  const PUBLIC_BUCKET_URL = env.url("PUBLIC_BUCKET_URL");
  const s3 = s3SettingsFromEnv(env);
  const names = {
    private: bucketName(env, "BUCKET", s3 ? undefined : DEFAULT_BUCKET_NAMES.private),
    public: bucketName(env, "PUBLIC_BUCKET", s3 ? undefined : DEFAULT_BUCKET_NAMES.public),
  };
  // One bucket for both would publish every private object.
  if (names.private === names.public) {
    throw new ConfigError(`PUBLIC_BUCKET must differ from BUCKET, both are "${names.private}"`);
  }
  if (s3) {
    const { createS3Client, PartBufferPool, partSizeFor, QUEUE_SIZE, S3Bucket } = await import(
      "./s3.ts"
    );
    const client = createS3Client(s3);
    // The two buckets share one client and one set of part buffers.
    const pool = new PartBufferPool(partSizeFor(maxObjectBytes), QUEUE_SIZE);
    return {
      BUCKET: new S3Bucket({ client, bucket: names.private, maxObjectBytes, pool }),
      PUBLIC_BUCKET: new S3Bucket({ client, bucket: names.public, maxObjectBytes, pool }),
      PUBLIC_BUCKET_URL,
      maxObjectBytes,
    };
  }
  const root = join(env.string("DATA_DIR", ".data"), "buckets");
  return {
    BUCKET: new FsBucket(join(root, names.private)),
    PUBLIC_BUCKET: new FsBucket(join(root, names.public)),
    PUBLIC_BUCKET_URL,
    maxObjectBytes,
  };
}

function bucketName(env: Env, variable: string, fallback: string | undefined): string {
  const name = env.string(variable) ?? fallback;
  if (name === undefined) {
    throw new ConfigError(`${variable} must be set to a bucket name when S3 is configured`);
  }
  if (!BUCKET_NAME.test(name) || name.includes("..")) {
    throw new ConfigError(
      `${variable} must be a bucket name (3-63 of a-z, 0-9, '.', '-'), got "${name.slice(0, 80)}"`,
    );
  }
  return name;
}
