/**
 * The two bucket backends the object-storage suite runs against: the filesystem default (as
 * config.ts's `bindingsFromEnv` builds it from `DATA_DIR`) and the S3 adapter over s3rver. Each hands out
 * fresh, empty private and public buckets, and lists every file under its folder, so a test
 * can tell that nothing was written (or left behind) anywhere.
 */
import { DeleteObjectCommand, ListObjectsCommand } from "@aws-sdk/client-s3";
import { join, relative } from "node:path";
import { Env } from "../../shared/contract/config.ts";
import { type Bindings, bindingsFromEnv } from "../../functions/object-storage/config.ts";
import { type S3rverHandle, startS3rver } from "../support/s3rver.ts";

/** The bucket names both backends use. */
export const BUCKETS = { private: "private", public: "public" } as const;

/** Options of fresh bindings. */
export interface FreshOptions {
  maxObjectBytes?: number;
  publicUrl?: string;
}

/** A started backend. */
export interface Backend {
  name: "filesystem" | "s3";
  /** The folder every byte of this backend lives under. */
  root: string;
  /** Bindings over empty buckets. */
  fresh(options?: FreshOptions): Promise<Bindings>;
  /** Every file under `root`, relative to it, sorted. */
  files(): Promise<string[]>;
  /** The bytes of every file under `root` together. */
  bytes(): Promise<number>;
  /** The s3rver, for the S3 backend. */
  s3?: S3rverHandle;
  close(): Promise<void>;
}

/** Starts the filesystem backend in a temporary folder. */
export async function filesystemBackend(): Promise<Backend> {
  const root = await Deno.makeTempDir({ prefix: "object-storage-" });
  let run = 0;
  return {
    name: "filesystem",
    root,
    fresh(options = {}) {
      // Buckets sit two levels down, so an escape like `../../x` would still land in `root`.
      const env = new Env({
        DATA_DIR: join(root, `run-${++run}`, "data"),
        MAX_OBJECT_BYTES: options.maxObjectBytes?.toString(),
        PUBLIC_BUCKET_URL: options.publicUrl,
      });
      return bindingsFromEnv(env);
    },
    files: () => listFiles(root),
    bytes: () => totalBytes(root),
    close: () => Deno.remove(root, { recursive: true }),
  };
}

/** Starts s3rver with the two buckets; `fresh()` empties them. */
export async function s3Backend(): Promise<Backend> {
  const s3 = await startS3rver([BUCKETS.private, BUCKETS.public]);
  return {
    name: "s3",
    root: s3.directory,
    s3,
    async fresh(options = {}) {
      for (const bucket of Object.values(BUCKETS)) await emptyBucket(s3, bucket);
      const maxObjectBytes = options.maxObjectBytes ?? 100 * 1024 * 1024;
      return {
        BUCKET: s3.bucket(BUCKETS.private, maxObjectBytes),
        PUBLIC_BUCKET: s3.bucket(BUCKETS.public, maxObjectBytes),
        PUBLIC_BUCKET_URL: options.publicUrl,
        maxObjectBytes,
      };
    },
    files: () => listFiles(s3.directory),
    bytes: () => totalBytes(s3.directory),
    close: () => s3.close(),
  };
}

async function emptyBucket(s3: S3rverHandle, bucket: string): Promise<void> {
  const out = await s3.client.send(new ListObjectsCommand({ Bucket: bucket }));
  for (const object of out.Contents ?? []) {
    await s3.client.send(new DeleteObjectCommand({ Bucket: bucket, Key: object.Key }));
  }
}

/** The bytes of every file under `dir` together. */
export async function totalBytes(dir: string): Promise<number> {
  let total = 0;
  for (const file of await listFiles(dir)) {
    try {
      total += (await Deno.stat(join(dir, file))).size;
    } catch {
      // removed meanwhile
    }
  }
  return total;
}

/** Every file under `dir`, relative, sorted. */
export async function listFiles(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (path: string) => {
    for await (const entry of Deno.readDir(path)) {
      const full = join(path, entry.name);
      if (entry.isDirectory) await walk(full);
      else out.push(relative(dir, full));
    }
  };
  try {
    await walk(dir);
  } catch (err) {
    if (!(err instanceof Deno.errors.NotFound)) throw err;
  }
  return out.sort();
}
