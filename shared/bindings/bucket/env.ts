/**
 * Building bucket bindings from the environment. With `S3_ENDPOINT` or S3 credentials set, every
 * binding is a bucket of that S3-compatible store, named by the binding's variable (`BUCKET`,
 * `PUBLIC_BUCKET`, …); otherwise each is a folder under `<DATA_DIR>/buckets/`, named by the same
 * variable or the experiment's default. Only the adapter in use is loaded: in S3 mode the
 * filesystem default is never imported and the disk is never touched (there is none at the
 * edge); without S3 the AWS SDK is never imported (it would double the cold start). A
 * deployment bundle (`env.deployment`) has no folder default: without S3 or an explicit
 * `DATA_DIR` every bucket call fails with a NotConfiguredError naming the variables.
 */
import type { ObjectBucket } from "./bucket.ts";
import { DEFAULT_S3_TIMEOUTS, type S3Timeouts } from "./s3_deadline.ts";
import type { S3Settings } from "./s3.ts";
import { ConfigError, type Env, NotConfiguredError } from "../../contract/config.ts";
import { onFirstUse } from "../../contract/lazy.ts";
import { LazyS3Bucket } from "./lazy_s3.ts";

/** Bounds of `S3_TIMEOUT_MS` and `S3_PART_TIMEOUT_MS`. */
export const S3_TIMEOUT_BOUNDS = {
  requestMs: { min: 100, max: 600_000 },
  partMs: { min: 100, max: 3_600_000 },
} as const;

/** What a deployment without S3 answers (the variables to set, no value). */
export const BUCKETS_NOT_CONFIGURED =
  "No object store configured: set S3_ENDPOINT, S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY " +
  "(with S3_REGION and the bucket names), or DATA_DIR to keep the objects on this instance's " +
  "own disk";

/** Options of {@link bucketsFromEnv}. */
export interface BucketsOptions {
  /** The largest object that will be stored; sizes S3 multipart parts (default 5 MiB parts). */
  maxObjectBytes?: number;
}

// S3's bucket-name rule; for folders it also keeps the name a single safe path segment.
const BUCKET_NAME = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;

/** The S3 settings, or undefined when no S3 store is configured. */
export function s3SettingsFromEnv(env: Env): S3Settings | undefined {
  const endpoint = env.url("S3_ENDPOINT");
  const keys = env.pair("S3_ACCESS_KEY_ID", "S3_SECRET_ACCESS_KEY");
  // Read even without S3, so a malformed value is reported whatever the mode.
  const timeouts = s3TimeoutsFromEnv(env);
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
    timeouts,
  };
}

/** `S3_TIMEOUT_MS` and `S3_PART_TIMEOUT_MS` (see ./s3_deadline.ts for what each bounds). */
export function s3TimeoutsFromEnv(env: Env): S3Timeouts {
  const { requestMs, partMs } = S3_TIMEOUT_BOUNDS;
  return {
    requestMs: env.int(
      "S3_TIMEOUT_MS",
      DEFAULT_S3_TIMEOUTS.requestMs,
      requestMs.min,
      requestMs.max,
    ),
    partMs: env.int("S3_PART_TIMEOUT_MS", DEFAULT_S3_TIMEOUTS.partMs, partMs.min, partMs.max),
  };
}

/**
 * Builds one bucket per binding: `bindings` maps each binding's variable (which names its
 * bucket) to the folder name used when the variable is unset and there is no S3. Rejects with
 * ConfigError on a malformed or missing value, or when two bindings name the same bucket (their
 * objects would mix: a private and a public binding would publish every private object). All
 * buckets of one call share one S3 client and one set of part buffers. Nothing is contacted or
 * created here: a store that is down fails the requests that use it, not the start-up.
 */
export async function bucketsFromEnv<const N extends string>(
  env: Env,
  bindings: Record<N, string>,
  options: BucketsOptions = {},
): Promise<Record<N, ObjectBucket>> {
  const s3 = s3SettingsFromEnv(env);
  const variables = Object.keys(bindings) as N[];
  const names = {} as Record<N, string>;
  const seen = new Map<string, N>();
  for (const variable of variables) {
    const name = bucketName(env, variable, s3 ? undefined : bindings[variable]);
    const other = seen.get(name);
    if (other) throw new ConfigError(`${variable} must differ from ${other}, both are "${name}"`);
    seen.set(name, variable);
    names[variable] = name;
  }
  const buckets = {} as Record<N, ObjectBucket>;
  if (s3) {
    // The adapter and the AWS SDK load with the first bucket call, not at start-up.
    const load = onFirstUse(async () => {
      const { createS3Client, PartBufferPool, partSizeFor, QUEUE_SIZE, S3Bucket } = await import(
        "./s3.ts"
      );
      const client = createS3Client(s3);
      const { maxObjectBytes } = options;
      const pool = new PartBufferPool(partSizeFor(maxObjectBytes), QUEUE_SIZE);
      const real = {} as Record<N, ObjectBucket>;
      for (const variable of variables) {
        real[variable] = new S3Bucket({
          client,
          bucket: names[variable],
          maxObjectBytes,
          pool,
          timeouts: s3.timeouts,
        });
      }
      return real;
    });
    for (const variable of variables) {
      buckets[variable] = new LazyS3Bucket(async () => (await load())[variable]);
    }
    return buckets;
  }
  const dataDir = env.string("DATA_DIR");
  if (env.deployment && dataDir === undefined) {
    // A deployment's disk is per instance and temporary: no silent default folder there.
    const missing = () => Promise.reject(new NotConfiguredError(BUCKETS_NOT_CONFIGURED));
    for (const variable of variables) buckets[variable] = new LazyS3Bucket(missing);
    return buckets;
  }
  const { FsBucket } = await import("./fs.ts");
  for (const variable of variables) {
    buckets[variable] = new FsBucket(`${dataDir ?? ".data"}/buckets/${names[variable]}`);
  }
  return buckets;
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
