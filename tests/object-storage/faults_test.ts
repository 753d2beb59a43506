/**
 * object-storage under faults, on loopback with bounded time: a store that is down at start-up
 * (main.ts with the edge permissions), a store that stops answering, concurrent uploads of one
 * key on the folder default, and a chunked body over the limit.
 */
import assert from "node:assert/strict";
import { join } from "node:path";
import { createApp } from "../../functions/object-storage/app.ts";
import { createS3Client, S3Bucket } from "../../shared/bindings/bucket/s3.ts";
import { DEFAULT_S3_TIMEOUTS } from "../../shared/bindings/bucket/s3_deadline.ts";
import { EDGE_PERMISSIONS, startEntrypoint } from "../support/entrypoint.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { startSilentStore } from "../support/frozen_s3.ts";
import { s3rverSettings } from "../support/s3rver.ts";
import { filesystemBackend } from "./backends.ts";
import { randomBytes, streamOf } from "./suite.ts";

const STORAGE_ERROR = { error: "Object storage operation failed", code: "STORAGE_ERROR" };

/** Every object route, as `[path, init]`. */
const OBJECT_ROUTES: [string, RequestInit][] = [
  ["/object?key=a.txt", { method: "PUT", body: "hello" }],
  ["/object?key=a.txt", {}],
  ["/object?key=a.txt", { method: "HEAD" }],
  ["/object?key=a.txt", { headers: { range: "bytes=0-1" } }],
  ["/object?key=a.txt", { method: "DELETE" }],
  ["/objects?public=true", {}],
  ["/public/a.txt", {}],
];

async function assertStorageError(res: Response, label: string) {
  assert.equal(res.status, 500, label);
  if (res.headers.get("content-length") === "0" || res.body === null) return; // HEAD
  const text = await res.text();
  if (text) assert.deepEqual(JSON.parse(text), STORAGE_ERROR, label);
}

Deno.test("main.ts with the edge permissions starts with S3 down and answers STORAGE_ERROR", async () => {
  const dataDir = join(await Deno.makeTempDir({ prefix: "object-edge-" }), "data");
  const { origin, stop } = await startEntrypoint("object-storage", {
    // Port 9 (discard) on loopback: nothing listens, so every S3 call is refused at once.
    S3_ENDPOINT: "http://127.0.0.1:9",
    S3_ACCESS_KEY_ID: "k",
    S3_SECRET_ACCESS_KEY: "s",
    BUCKET: "private-bucket",
    PUBLIC_BUCKET: "public-bucket",
    S3_REGION: "us-east-1",
    DATA_DIR: dataDir,
  }, EDGE_PERMISSIONS);
  try {
    const root = await fetch(`${origin}/`);
    assert.equal(root.status, 200);
    assert.equal((await root.json()).name, "object-storage");
    for (const [path, init] of OBJECT_ROUTES) {
      const res = await endedByDeadline(
        fetch(`${origin}${path}`, init),
        DEFAULT_S3_TIMEOUTS.requestMs,
      );
      await assertStorageError(res, `${init.method ?? "GET"} ${path}`);
    }
    // No folder bucket was loaded or created: the edge has no disk to give it.
    await assert.rejects(Deno.stat(dataDir), Deno.errors.NotFound);
  } finally {
    await stop("SIGTERM");
    await Deno.remove(join(dataDir, ".."), { recursive: true });
  }
});

Deno.test("main.ts: with S3 and PUBLIC_BUCKET_URL, /public/<key> redirects without the store", async () => {
  const { origin, stop } = await startEntrypoint("object-storage", {
    S3_ENDPOINT: "http://127.0.0.1:9",
    BUCKET: "private-bucket",
    PUBLIC_BUCKET: "public-bucket",
    PUBLIC_BUCKET_URL: "https://public-bucket.example/files/",
  }, EDGE_PERMISSIONS);
  try {
    const res = await fetch(`${origin}/public/img/logo%201.png`, { redirect: "manual" });
    assert.equal(res.status, 302);
    assert.equal(
      res.headers.get("location"),
      "https://public-bucket.example/files/img/logo%201.png",
    );
    await res.body?.cancel();
  } finally {
    await stop("SIGTERM");
  }
});

Deno.test("a store that stops answering: every route is STORAGE_ERROR within its deadline", async () => {
  const store = startSilentStore();
  const timeouts = { requestMs: 300, partMs: 600 };
  const client = createS3Client(s3rverSettings(store.endpoint, { timeouts }));
  const bucket = (name: string) => new S3Bucket({ client, bucket: name, timeouts });
  const app = createApp({
    BUCKET: bucket("private"),
    PUBLIC_BUCKET: bucket("public"),
    maxObjectBytes: 64 * 1024 * 1024,
  }, { log: () => {} });
  try {
    const routes: [string, RequestInit][] = [
      ...OBJECT_ROUTES,
      // A multipart upload (CreateMultipartUpload is the call that hangs).
      ["/object?key=big", { method: "PUT", body: streamOf(randomBytes(12 * 1024 * 1024)) }],
    ];
    for (const [path, init] of routes) {
      const res = await endedByDeadline(app.request(path, init), timeouts.partMs);
      await assertStorageError(res, `${init.method ?? "GET"} ${path}`);
    }
  } finally {
    client.destroy();
    await store.close();
  }
});

Deno.test("20 concurrent PUTs of one key over HTTP leave exactly one object on disk", async () => {
  const backend = await filesystemBackend();
  const app = createApp(await backend.fresh(), { log: () => {} });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const origin = `http://127.0.0.1:${server.addr.port}`;
  try {
    const bodies = Array.from({ length: 20 }, () => randomBytes(512 * 1024));
    const statuses = await Promise.all(bodies.map(async (body) => {
      const res = await fetch(`${origin}/object?key=same`, {
        method: "PUT",
        body: streamOf(body, 32 * 1024),
      });
      await res.body?.cancel();
      return res.status;
    }));
    assert.deepEqual(new Set(statuses), new Set([200]));
    const files = await backend.files();
    const objects = files.filter((f) => f.includes("/objects/"));
    assert.equal(objects.length, 2, `one data file and one sidecar: ${files.join()}`);
    assert.deepEqual(files.filter((f) => f.includes("/tmp/")), []);
    const stored = new Uint8Array(await (await fetch(`${origin}/object?key=same`)).arrayBuffer());
    assert.ok(bodies.some((b) => b.every((x, i) => x === stored[i])), "one upload, whole");
  } finally {
    await server.shutdown();
    await backend.close();
  }
});

Deno.test("a chunked body over MAX_OBJECT_BYTES is refused with 413 while it streams", async () => {
  const backend = await filesystemBackend();
  const max = 1024 * 1024;
  const app = createApp(await backend.fresh({ maxObjectBytes: max }), { log: () => {} });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen() {} }, app.fetch);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  const encoder = new TextEncoder();
  try {
    await conn.write(encoder.encode(
      "PUT /object?key=endless HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n",
    ));
    let response = "";
    const reading = (async () => {
      const buffer = new Uint8Array(4096);
      const decoder = new TextDecoder();
      while (!response.includes("\r\n\r\n")) {
        const n = await conn.read(buffer).catch(() => null);
        if (n === null) break;
        response += decoder.decode(buffer.subarray(0, n));
      }
    })();
    // An endless body: 64 KiB chunks until the answer comes (at most 256 MiB or 30 s).
    const chunk = new Uint8Array(64 * 1024);
    const frame = new Uint8Array([
      ...encoder.encode(`${chunk.length.toString(16)}\r\n`),
      ...chunk,
      ...encoder.encode("\r\n"),
    ]);
    let sent = 0;
    const deadline = Date.now() + 30_000;
    while (!response && sent < 256 * 1024 * 1024 && Date.now() < deadline) {
      const wrote = await Promise.race([
        conn.write(frame).then(() => true, () => false),
        reading.then(() => false),
      ]);
      if (!wrote) break;
      sent += chunk.length;
    }
    await Promise.race([reading, new Promise((r) => setTimeout(r, 10_000))]);
    assert.match(response, /^HTTP\/1\.1 413 /, response.slice(0, 80));
    // Answered at once: the body was not read to its end (loopback buffers hold a few MiB).
    assert.ok(sent < 32 * 1024 * 1024, `the client had sent ${sent} bytes`);
    assert.deepEqual(await backend.files(), [], "nothing stored, no temp file left");
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the server
    }
    await server.shutdown();
    await backend.close();
  }
});
