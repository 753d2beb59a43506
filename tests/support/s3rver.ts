/**
 * s3rver (npm) run inside the test process on 127.0.0.1, with a data folder of its own, and
 * S3 clients and buckets of shared/bucket_s3.ts pointed at it.
 */
import type { S3Client } from "@aws-sdk/client-s3";
import S3rver from "s3rver";
import { createS3Client, S3Bucket, type S3Settings } from "../../shared/bindings/bucket/s3.ts";

/** A running s3rver. */
export interface S3rverHandle {
  /** `http://127.0.0.1:<port>` */
  endpoint: string;
  /** The folder s3rver keeps buckets in (for "nothing left behind" checks). */
  directory: string;
  /** The settings shared/bucket_s3.ts reaches it with. */
  settings: S3Settings;
  /** A client over `settings`; closed by `close()`. */
  client: S3Client;
  /** An adapter over one of its buckets. */
  bucket(name: string, maxObjectBytes?: number): S3Bucket;
  /** Closes the clients, the server and removes its folder. */
  close(): Promise<void>;
}

/** s3rver's fixed credentials. */
export const S3RVER_CREDENTIALS = { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" };

/** The settings that reach an s3rver (or a fake of one) at `endpoint`, plus `more`. */
export function s3rverSettings(endpoint: string, more: Partial<S3Settings> = {}): S3Settings {
  return {
    endpoint,
    region: "us-east-1",
    credentials: S3RVER_CREDENTIALS,
    forcePathStyle: true,
    ...more,
  };
}

/** Starts s3rver on 127.0.0.1 at a free port with these buckets. */
export async function startS3rver(buckets: string[]): Promise<S3rverHandle> {
  const directory = await Deno.makeTempDir({ prefix: "s3rver-" });
  const server = new S3rver({
    port: 0,
    address: "127.0.0.1",
    silent: true,
    directory,
    configureBuckets: buckets.map((name) => ({ name })),
  });
  const address = await server.run() as { port: number };
  const endpoint = `http://127.0.0.1:${address.port}`;
  const settings = s3rverSettings(endpoint);
  const client = createS3Client(settings);
  return {
    endpoint,
    directory,
    settings,
    client,
    bucket: (name, maxObjectBytes) => new S3Bucket({ client, bucket: name, maxObjectBytes }),
    async close() {
      client.destroy();
      // Keep-alive sockets of other clients would hold close() open.
      server.httpServer?.closeAllConnections?.();
      await server.close();
      await Deno.remove(directory, { recursive: true });
    },
  };
}

/** An address on 127.0.0.1 where nothing listens (an S3 store that is down). */
export function closedEndpoint(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}
