import assert from "node:assert/strict";
import { GetObjectCommand } from "@aws-sdk/client-s3";
import { InvalidKeyError, ObjectChangedError } from "../../../../shared/bindings/bucket/bucket.ts";
import { createS3Client, S3Bucket } from "../../../../shared/bindings/bucket/s3.ts";
import { closedEndpoint, s3rverSettings, startS3rver } from "../../../support/s3rver.ts";
import { read, streamOf } from "../../../support/text_stream.ts";

Deno.test("S3 adapter against s3rver", async (t) => {
  const s3 = await startS3rver(["adapter", "other"]);
  const bucket = s3.bucket("adapter");
  try {
    await t.step("put records the content type; get, range and head read it back", async () => {
      const info = await bucket.put("dir/a b.txt", streamOf("hello ", "world"), {
        contentType: "text/plain; charset=utf-8",
      });
      assert.equal(info.size, 11);
      assert.equal(info.etag, '"5eb63bbbe01eeed093cb22bb8f5acdc3"');
      // What the store itself holds, through the raw SDK.
      const raw = await s3.client.send(
        new GetObjectCommand({ Bucket: "adapter", Key: "dir/a b.txt" }),
      );
      assert.equal(raw.ContentType, "text/plain; charset=utf-8");
      assert.equal(await raw.Body!.transformToString(), "hello world");

      const head = await bucket.head("dir/a b.txt");
      assert.equal(head!.size, 11);
      assert.equal(head!.contentType, "text/plain; charset=utf-8");
      assert.equal(head!.etag, info.etag);
      const whole = await bucket.get("dir/a b.txt");
      assert.equal(whole!.info.size, 11);
      assert.equal(await read(whole!.body), "hello world");
      const part = await bucket.get("dir/a b.txt", { range: { start: 6, end: 9 } });
      assert.equal(part!.info.size, 11, "the size of the object, not of the range");
      assert.equal(await read(part!.body), "worl");
    });

    await t.step("a stale If-Match is ObjectChangedError", async () => {
      const first = await bucket.put("k", streamOf("one"), { contentType: "text/plain" });
      await bucket.put("k", streamOf("two"), { contentType: "text/plain" });
      await assert.rejects(bucket.get("k", { ifMatch: first.etag }), ObjectChangedError);
    });

    await t.step("missing objects are null and false; buckets are separate", async () => {
      assert.equal(await bucket.head("nope"), null);
      assert.equal(await bucket.get("nope"), null);
      assert.equal(await bucket.delete("nope"), false);
      assert.equal(await s3.bucket("other").head("k"), null);
      assert.equal(await bucket.delete("k"), true);
      assert.equal(await bucket.head("k"), null);
    });

    await t.step("list pages with a marker and carries content types", async () => {
      const other = s3.bucket("other");
      const keys = ["b", "a/2", "a/1", "c"];
      for (const [i, key] of keys.entries()) {
        await other.put(key, streamOf(key), { contentType: `text/x-${i}` });
      }
      const first = await other.list({ limit: 3 });
      assert.deepEqual(first.objects.map((o) => [o.key, o.contentType]), [
        ["a/1", "text/x-2"],
        ["a/2", "text/x-1"],
        ["b", "text/x-0"],
      ]);
      assert.equal(first.next, "b");
      const rest = await other.list({ limit: 3, after: first.next! });
      assert.deepEqual(rest.objects.map((o) => o.key), ["c"]);
      assert.equal(rest.next, null);
      const prefixed = await other.list({ limit: 10, prefix: "a/" });
      assert.deepEqual(prefixed.objects.map((o) => o.key), ["a/1", "a/2"]);
      assert.equal(prefixed.objects[0].size, 3);
    });

    await t.step("hostile keys never reach the store", async () => {
      for (const key of ["../x", "a/../../b", "a\u0000b", "/abs"]) {
        await assert.rejects(
          bucket.put(key, streamOf("x"), { contentType: "text/plain" }),
          InvalidKeyError,
        );
        await assert.rejects(bucket.head(key), InvalidKeyError);
      }
    });
  } finally {
    await s3.close();
  }
});

Deno.test("S3 adapter: a store that is down fails every call", async () => {
  const client = createS3Client(s3rverSettings(closedEndpoint(), { maxAttempts: 1 }));
  try {
    const bucket = new S3Bucket({ client, bucket: "down" });
    await assert.rejects(bucket.put("k", streamOf("v"), { contentType: "text/plain" }));
    await assert.rejects(bucket.get("k"));
    await assert.rejects(bucket.head("k"));
    await assert.rejects(bucket.list({ limit: 1 }));
  } finally {
    client.destroy();
  }
});
