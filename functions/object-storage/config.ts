/**
 * object-storage's bindings from the environment: the two buckets (the bucket binding reads
 * `S3_*`, `BUCKET`, `PUBLIC_BUCKET`, `DATA_DIR`) and this experiment's own knobs,
 * `MAX_OBJECT_BYTES` and `PUBLIC_BUCKET_URL`. A malformed value is a ConfigError naming it.
 */
import { bucketsFromEnv, type ObjectBucket } from "../../shared/bindings/bucket/mod.ts";
import { ConfigError, type Env } from "../../shared/contract/config.ts";
import {
  MIN_ADMIN_TOKEN_BYTES,
  MIN_SIGNING_KEY_BYTES,
  type SigningConfig,
  signingConfig,
} from "./signing.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8008;

/** `MAX_OBJECT_BYTES` when unset: 100 MiB. */
export const DEFAULT_MAX_OBJECT_BYTES = 100 * 1024 * 1024;
/** The largest `MAX_OBJECT_BYTES` accepted: S3's 5 TiB object limit. */
export const MAX_MAX_OBJECT_BYTES = 5 * 1024 ** 4;
/** Folder names of the filesystem default when `BUCKET` / `PUBLIC_BUCKET` are unset. */
export const DEFAULT_BUCKET_NAMES = { BUCKET: "private", PUBLIC_BUCKET: "public" } as const;

/** What object-storage's app needs. */
export interface Bindings {
  /** The private bucket (reachable only through the service). */
  BUCKET: ObjectBucket;
  /** The public bucket (reachable through direct URLs). */
  PUBLIC_BUCKET: ObjectBucket;
  /** Base address of the public bucket's direct URLs, without a trailing `/`. */
  PUBLIC_BUCKET_URL?: string;
  /** The largest accepted upload, in bytes. */
  maxObjectBytes: number;
  /** Signed links (`OBJECT_SIGNING_KEY` and `OBJECT_ADMIN_TOKEN`); absent: their routes 404. */
  signing?: SigningConfig;
  /** The clock signed links are checked against (ms since the epoch); tests inject one. */
  now?: () => number;
}

/**
 * The signing secrets: both set, or none (the routes are then absent). One that is too short
 * to be a secret is a ConfigError naming it.
 */
export async function signingFromEnv(env: Env): Promise<SigningConfig | undefined> {
  const key = env.string("OBJECT_SIGNING_KEY");
  const token = env.string("OBJECT_ADMIN_TOKEN");
  const bytes = (s: string) => new TextEncoder().encode(s).length;
  if (key !== undefined && bytes(key) < MIN_SIGNING_KEY_BYTES) {
    throw new ConfigError(`OBJECT_SIGNING_KEY must be at least ${MIN_SIGNING_KEY_BYTES} bytes`);
  }
  if (token !== undefined && bytes(token) < MIN_ADMIN_TOKEN_BYTES) {
    throw new ConfigError(`OBJECT_ADMIN_TOKEN must be at least ${MIN_ADMIN_TOKEN_BYTES} bytes`);
  }
  return key && token ? await signingConfig(key, token) : undefined;
}

/** Reads the environment into the bindings; nothing is contacted or created. */
export async function bindingsFromEnv(env: Env): Promise<Bindings> {
  const maxObjectBytes = env.int(
    "MAX_OBJECT_BYTES",
    DEFAULT_MAX_OBJECT_BYTES,
    1,
    MAX_MAX_OBJECT_BYTES,
  );
  const PUBLIC_BUCKET_URL = env.url("PUBLIC_BUCKET_URL");
  const signing = await signingFromEnv(env);
  const buckets = await bucketsFromEnv(env, DEFAULT_BUCKET_NAMES, { maxObjectBytes });
  return { ...buckets, PUBLIC_BUCKET_URL, maxObjectBytes, signing };
}
