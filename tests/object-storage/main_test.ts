/**
 * main.ts as a process: it builds the buckets from the environment (S3 here, against s3rver in
 * this test process), and a malformed value stops start-up with one line naming it.
 */
import assert from "node:assert/strict";
import { assertConfigError, startEntrypoint } from "../support/entrypoint.ts";
import { startS3rver } from "../support/s3rver.ts";

Deno.test("main.ts stores in S3 when S3_ENDPOINT is set", async () => {
  const s3 = await startS3rver(["main-private", "main-public"]);
  const { origin, stop } = await startEntrypoint("object-storage", {
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    BUCKET: "main-private",
    PUBLIC_BUCKET: "main-public",
    PUBLIC_BUCKET_URL: "https://cdn.example/assets",
  });
  try {
    const put = await fetch(`${origin}/object?key=a/b.txt&public=true`, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body: "via main",
    });
    assert.deepEqual(await put.json(), {
      key: "a/b.txt",
      uploaded: true,
      url: "https://cdn.example/assets/a/b.txt",
    });
    const object = await s3.bucket("main-public").get("a/b.txt");
    assert.equal(object?.info.contentType, "text/plain");
    assert.equal(await new Response(object!.body).text(), "via main");
    const res = await fetch(`${origin}/public/a/b.txt`, { redirect: "manual" });
    assert.equal(res.status, 302);
    assert.equal(res.headers.get("location"), "https://cdn.example/assets/a/b.txt");
    await res.body?.cancel();
  } finally {
    await stop("SIGTERM");
    await s3.close();
  }
});

Deno.test("a malformed bucket variable stops start-up with one line", async () => {
  await assertConfigError("object-storage", { MAX_OBJECT_BYTES: "100MB" }, "MAX_OBJECT_BYTES ");
});
