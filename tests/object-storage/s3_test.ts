/** The object-storage suite through the real S3 client against s3rver, plus S3-only rows. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/object-storage/app.ts";
import { createS3Client, S3Bucket } from "../../shared/bindings/bucket/s3.ts";
import { closedEndpoint, s3rverSettings } from "../support/s3rver.ts";
import { BUCKETS, s3Backend } from "./backends.ts";
import { freshApp, objectStorageSuite, randomBytes, signedLinkSuite, streamOf } from "./suite.ts";

Deno.test("object-storage over S3 (s3rver)", async (t) => {
  const backend = await s3Backend();
  const s3 = backend.s3!;
  // Every command the adapter sends, by name.
  const sent: string[] = [];
  s3.client.middlewareStack.add(
    (next, context) => (args) => {
      sent.push(context.commandName as string);
      return next(args);
    },
    { step: "initialize", name: "recordCommands" },
  );
  try {
    await objectStorageSuite(t, backend);
    await signedLinkSuite(t, backend);

    await t.step("a large body goes up as a multipart upload", async () => {
      const { app } = await freshApp(backend);
      sent.length = 0;
      const res = await app.request("/object?key=multi", {
        method: "PUT",
        body: streamOf(randomBytes(12 * 1024 * 1024)),
      });
      assert.equal(res.status, 200);
      assert.deepEqual(sent.filter((c) => c.includes("Multipart") || c === "UploadPartCommand"), [
        "CreateMultipartUploadCommand",
        "UploadPartCommand",
        "UploadPartCommand",
        "UploadPartCommand",
        "CompleteMultipartUploadCommand",
      ]);
      const small = await app.request("/object?key=small", { method: "PUT", body: "x" });
      assert.equal(small.status, 200);
      assert.equal(sent.at(-1), "PutObjectCommand", "a small body is one PutObject");
    });

    await t.step("a failed multipart upload is aborted", async () => {
      const { app } = await freshApp(backend, { maxObjectBytes: 12 * 1024 * 1024 });
      for (
        const [body, status] of [
          [streamOf(new Uint8Array(16 * 1024 * 1024)), 413], // over the limit
          [streamOf(randomBytes(11 * 1024 * 1024), 1024 * 1024, true), 400], // cut off
        ] as const
      ) {
        sent.length = 0;
        const res = await app.request("/object?key=aborted", { method: "PUT", body });
        assert.equal(res.status, status);
        await res.body?.cancel();
        assert.ok(sent.includes("CreateMultipartUploadCommand"), sent.join());
        assert.ok(sent.includes("AbortMultipartUploadCommand"), sent.join());
        assert.ok(!sent.includes("CompleteMultipartUploadCommand"), sent.join());
      }
      assert.equal((await app.request("/object?key=aborted")).status, 404);
    });

    await t.step("GET /public/<key> redirects to PUBLIC_BUCKET_URL/<key>", async () => {
      const { app } = await freshApp(backend, { publicUrl: "https://cdn.example/pub" });
      const put = await app.request("/object?key=a%20b/p.txt&public=true", {
        method: "PUT",
        body: "p",
      });
      const { url } = await put.json();
      sent.length = 0;
      const res = await app.request("/public/a%20b/p.txt");
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "https://cdn.example/pub/a%20b/p.txt");
      assert.equal(res.headers.get("location"), url, "the url the upload answered with");
      assert.deepEqual(sent, [], "a redirect costs no bucket call");
      const bad = await app.request("/public/a%00b.txt");
      assert.equal(bad.status, 400, "the key rule holds before any redirect");
      assert.equal(bad.headers.get("location"), null);
    });

    await t.step("without PUBLIC_BUCKET_URL, GET /public/<key> streams from S3", async () => {
      const { app } = await freshApp(backend);
      await app.request("/object?key=p.txt&public=true", { method: "PUT", body: "public p" });
      await app.request("/object?key=q.txt", { method: "PUT", body: "private q" });
      const res = await app.request("/public/p.txt");
      assert.equal(res.status, 200);
      assert.equal(await res.text(), "public p");
      const ranged = await app.request("/public/p.txt", { headers: { range: "bytes=7-" } });
      assert.equal(ranged.status, 206);
      assert.equal(await ranged.text(), "p");
      const priv = await app.request("/public/q.txt");
      assert.equal(priv.status, 404, "the private bucket has no direct URL");
      await priv.body?.cancel();
    });

    await t.step("a missing bucket is 500 STORAGE_ERROR, not a missing object", async () => {
      const bucket = new S3Bucket({ client: s3.client, bucket: "no-such-bucket" });
      const app = createApp(
        { BUCKET: bucket, PUBLIC_BUCKET: bucket, maxObjectBytes: 1024 },
        { log: () => {} },
      );
      const res = await app.request("/object?key=x", { method: "PUT", body: "x" });
      assert.equal(res.status, 500);
      const body = await res.json();
      assert.deepEqual(body, { error: "Object storage operation failed", code: "STORAGE_ERROR" });
    });
  } finally {
    await backend.close();
  }
});

Deno.test("S3 down: every route is 500 STORAGE_ERROR with a generic message", async () => {
  const endpoint = closedEndpoint();
  const client = createS3Client(s3rverSettings(endpoint, { maxAttempts: 1 }));
  try {
    const bucket = (name: string) => new S3Bucket({ client, bucket: name });
    const app = createApp({
      BUCKET: bucket(BUCKETS.private),
      PUBLIC_BUCKET: bucket(BUCKETS.public),
      PUBLIC_BUCKET_URL: "https://cdn.example/pub",
      maxObjectBytes: 1024 * 1024,
    }, { log: () => {} });
    const requests: [string, RequestInit][] = [
      ["/object?key=a.txt", { method: "PUT", body: "hello" }],
      ["/object?key=a.txt&public=true", { method: "PUT", body: streamOf(new Uint8Array(10)) }],
      ["/object?key=a.txt", {}],
      ["/object?key=a.txt", { headers: { range: "bytes=0-1" } }],
      ["/object?key=a.txt", { method: "DELETE" }],
      ["/objects?public=true", {}],
    ];
    for (const [path, init] of requests) {
      const res = await app.request(path, init);
      const label = `${init.method ?? "GET"} ${path}`;
      assert.equal(res.status, 500, label);
      const text = await res.text();
      assert.deepEqual(JSON.parse(text), {
        error: "Object storage operation failed",
        code: "STORAGE_ERROR",
      }, label);
      for (const secret of [endpoint, endpoint.split(":").at(-1)!, "127.0.0.1", "S3RVER"]) {
        assert.ok(!text.includes(secret), `${label} leaks ${secret}`);
      }
    }
    const head = await app.request("/object?key=a.txt", { method: "HEAD" });
    assert.equal(head.status, 500);
  } finally {
    client.destroy();
  }
});

Deno.test("over real HTTP, Deno's request body streams into S3 byte-identical", async () => {
  const backend = await s3Backend();
  const bindings = await backend.fresh({ maxObjectBytes: 24 * 1024 * 1024 });
  const app = createApp(bindings, { log: () => {} });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const digest = async (bytes: ArrayBuffer | Uint8Array) =>
    new Uint8Array(await crypto.subtle.digest("SHA-256", bytes as BufferSource)).join();
  try {
    const bytes = randomBytes(20 * 1024 * 1024 + 123);
    const bodies: [string, () => BodyInit][] = [
      ["content-length", () => bytes as Uint8Array<ArrayBuffer>], // fetch sends a Uint8Array with Content-Length
      ["chunked", () => streamOf(bytes, 1024 * 1024)], // and a stream chunked
    ];
    for (const [name, body] of bodies) {
      const put = await fetch(`${origin}/object?key=${name}.bin`, { method: "PUT", body: body() });
      assert.equal(put.status, 200, `${name}: ${await put.clone().text()}`);
      await put.body?.cancel();
      const get = await fetch(`${origin}/object?key=${name}.bin`);
      assert.equal(get.headers.get("content-length"), String(bytes.length), name);
      assert.equal(await digest(await get.arrayBuffer()), await digest(bytes), name);
    }
    // Over the limit, declared or not: 413 and no object.
    const big = new Uint8Array(25 * 1024 * 1024);
    for (const [name, body] of [["declared", big], ["streamed", streamOf(big)]] as const) {
      const res = await fetch(`${origin}/object?key=${name}-big`, { method: "PUT", body });
      assert.equal(res.status, 413, name);
      assert.equal((await res.json()).code, "INVALID_INPUT", name);
      const get = await fetch(`${origin}/object?key=${name}-big`);
      assert.equal(get.status, 404, name);
      await get.body?.cancel();
    }
  } finally {
    await server.shutdown();
    await backend.close();
  }
});
