/**
 * object-storage run as two instances on one S3 store (s3rver), under the edge permissions (no
 * writable disk): what one instance stores, replaces or deletes is what the other serves at
 * once (no instance keeps objects or their listing in memory), and an object acknowledged by
 * an instance that then crashes (SIGKILL) or is evicted (SIGINT) is there for the other.
 */
import assert from "node:assert/strict";
import { S3RVER_CREDENTIALS, startS3rver } from "../support/s3rver.ts";
import type { RunningEntrypoint } from "../support/entrypoint.ts";
import { startInstances, stopAll } from "./instances.ts";

const PRIVATE_BUCKET = "multi-private";
const PUBLIC_BUCKET = "multi-public";

async function put(origin: string, key: string, body: string): Promise<void> {
  const res = await fetch(`${origin}/object?key=${encodeURIComponent(key)}`, {
    method: "PUT",
    headers: { "content-type": "text/plain" },
    body,
  });
  assert.equal(res.status, 200, await res.text());
}

async function read(origin: string, key: string): Promise<string> {
  const res = await fetch(`${origin}/object?key=${encodeURIComponent(key)}`);
  const text = await res.text();
  return res.status === 200 ? text : String(res.status);
}

Deno.test({
  name: "multi-instance object-storage: one store, every instance sees every change at once",
  sanitizeResources: false,
  sanitizeOps: false,
  async fn(t) {
    const s3 = await startS3rver([PRIVATE_BUCKET, PUBLIC_BUCKET]);
    const env = {
      S3_ENDPOINT: s3.endpoint,
      S3_REGION: "us-east-1",
      S3_ACCESS_KEY_ID: S3RVER_CREDENTIALS.accessKeyId,
      S3_SECRET_ACCESS_KEY: S3RVER_CREDENTIALS.secretAccessKey,
      S3_FORCE_PATH_STYLE: "true",
      BUCKET: PRIVATE_BUCKET,
      PUBLIC_BUCKET,
    };
    const running: RunningEntrypoint[] = [];
    try {
      running.push(...await startInstances("object-storage", 2, env));
      const [a, b] = running;

      await t.step(
        "a PUT, a replacement and a DELETE through one are what the other serves next",
        async () => {
          await put(a.origin, "shared/note.txt", "first");
          assert.equal(await read(b.origin, "shared/note.txt"), "first");
          await put(b.origin, "shared/note.txt", "second");
          assert.equal(await read(a.origin, "shared/note.txt"), "second");
          const listed = await (await fetch(`${a.origin}/objects?prefix=shared/`)).json();
          assert.deepEqual(listed.objects.map((o: { key: string }) => o.key), ["shared/note.txt"]);
          const del = await fetch(`${b.origin}/object?key=shared/note.txt`, { method: "DELETE" });
          await del.body?.cancel();
          assert.ok(del.ok, `DELETE ${del.status}`);
          assert.equal(await read(a.origin, "shared/note.txt"), "404");
        },
      );

      await t.step(
        "what a crashed (SIGKILL) or evicted (SIGINT) instance acknowledged stays",
        async () => {
          const [c, d] = await startInstances("object-storage", 2, env);
          running.push(c, d);
          await put(c.origin, "crash/kept.txt", "acknowledged before the crash");
          await c.stop("SIGKILL");
          assert.equal(await read(a.origin, "crash/kept.txt"), "acknowledged before the crash");
          await put(d.origin, "evict/kept.txt", "acknowledged before the eviction");
          d.child.kill("SIGINT");
          assert.equal((await d.child.status).code, 0);
          assert.equal(await read(b.origin, "evict/kept.txt"), "acknowledged before the eviction");
        },
      );
    } finally {
      await stopAll(running);
      await s3.close();
    }
  },
});
