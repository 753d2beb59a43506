/**
 * The object-storage suite: every route and error case of the experiment, run by `filesystem_test.ts` against the
 * folder default and by `s3_test.ts` through the real S3 client against s3rver.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/object-storage/app.ts";
import { signGrant, signingConfig } from "../../functions/object-storage/signing.ts";
import type { Backend, FreshOptions } from "./backends.ts";
import { assertMadeSince } from "../support/timestamps.ts";

/** An app over fresh buckets of `backend`, with the request log silenced. */
export async function freshApp(backend: Backend, options: FreshOptions = {}) {
  const bindings = await backend.fresh(options);
  return { app: createApp(bindings, { log: () => {} }), bindings };
}

/** `size` random bytes. */
export function randomBytes(size: number): Uint8Array {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

/** A body with no Content-Length: `bytes` in chunks, then (optionally) an error. */
export function streamOf(bytes: Uint8Array, chunk = 256 * 1024, failAtEnd = false) {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    pull(controller) {
      if (offset >= bytes.length) {
        if (failAtEnd) controller.error(new Error("connection reset by peer"));
        else controller.close();
        return;
      }
      controller.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

async function sha256(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

const q = encodeURIComponent;

/** Registers every row of the suite as steps of `t`. */
export async function objectStorageSuite(t: Deno.TestContext, backend: Backend): Promise<void> {
  await t.step("upload stores the bytes with the request Content-Type", async () => {
    const { app } = await freshApp(backend);
    const uploaded = Date.now();
    const put = await app.request(`/object?key=${q("notes/hello.txt")}`, {
      method: "PUT",
      headers: { "content-type": "text/plain; charset=utf-8" },
      body: "hello, world",
    });
    assert.equal(put.status, 200);
    assert.equal(put.headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(await put.json(), { key: "notes/hello.txt", uploaded: true });

    const get = await app.request(`/object?key=${q("notes/hello.txt")}`);
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(get.headers.get("content-length"), "12");
    assert.match(get.headers.get("etag") ?? "", /^"[^"]+"$/);
    assertMadeSince(get.headers.get("last-modified"), uploaded, "Last-Modified");
    assert.equal(get.headers.get("x-content-type-options"), "nosniff");
    assert.equal(await get.text(), "hello, world");
  });

  await t.step("an upload without Content-Type is application/octet-stream", async () => {
    const { app } = await freshApp(backend);
    const put = await app.request("/object?key=raw.bin", {
      method: "PUT",
      body: new Uint8Array([0, 1, 2, 255]),
    });
    assert.equal(put.status, 200);
    const get = await app.request("/object?key=raw.bin");
    assert.equal(get.headers.get("content-type"), "application/octet-stream");
    assert.deepEqual(new Uint8Array(await get.arrayBuffer()), new Uint8Array([0, 1, 2, 255]));
  });

  await t.step("an empty body is a zero-byte object", async () => {
    const { app } = await freshApp(backend);
    assert.equal((await app.request("/object?key=empty", { method: "PUT" })).status, 200);
    const get = await app.request("/object?key=empty");
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("content-length"), "0");
    assert.equal((await get.arrayBuffer()).byteLength, 0);
  });

  await t.step("a malformed Content-Type is 400 and nothing is stored", async () => {
    const { app } = await freshApp(backend);
    const put = await app.request("/object?key=x", {
      method: "PUT",
      headers: { "content-type": "not a media type" },
      body: "x",
    });
    assert.equal(put.status, 400);
    assert.deepEqual(await put.json(), { error: "Invalid Content-Type", code: "INVALID_INPUT" });
    assert.equal((await app.request("/object?key=x")).status, 404);
  });

  await t.step("a 20 MiB random body reads back byte-identical", async () => {
    const { app } = await freshApp(backend);
    const bytes = randomBytes(20 * 1024 * 1024);
    const put = await app.request("/object?key=big/random.bin", {
      method: "PUT",
      headers: { "content-type": "application/x-random" },
      body: streamOf(bytes, 1024 * 1024),
    });
    assert.equal(put.status, 200, await put.clone().text());
    const get = await app.request("/object?key=big/random.bin");
    assert.equal(get.status, 200);
    assert.equal(get.headers.get("content-length"), String(bytes.length));
    assert.equal(get.headers.get("content-type"), "application/x-random");
    const back = new Uint8Array(await get.arrayBuffer());
    assert.equal(back.length, bytes.length);
    assert.equal(await sha256(back), await sha256(bytes));
  });

  await t.step("the body is stored as it arrives, never held whole", async () => {
    const { app } = await freshApp(backend);
    const MiB = 1024 * 1024;
    const bytes = randomBytes(12 * MiB);
    const before = await backend.bytes();
    let offset = 0;
    const body = new ReadableStream<Uint8Array>({
      async pull(controller) {
        if (offset === 11 * MiB) {
          // Hold the last MiB back until the store holds at least 5 MiB of this upload (for
          // S3, a part): a service that buffered the body whole would wait here forever.
          const deadline = Date.now() + 10_000;
          while ((await backend.bytes()) - before < 5 * MiB) {
            if (Date.now() > deadline) {
              return controller.error(new Error("nothing stored before the body ended"));
            }
            await new Promise((r) => setTimeout(r, 20));
          }
        }
        if (offset >= bytes.length) return controller.close();
        controller.enqueue(bytes.slice(offset, offset + MiB));
        offset += MiB;
      },
    });
    const put = await app.request("/object?key=streamed.bin", { method: "PUT", body });
    assert.equal(put.status, 200, await put.clone().text());
    const back = new Uint8Array(
      await (await app.request("/object?key=streamed.bin")).arrayBuffer(),
    );
    assert.equal(await sha256(back), await sha256(bytes));
  });

  await t.step("HEAD answers the headers without a body", async () => {
    const { app } = await freshApp(backend);
    await app.request("/object?key=h.txt", { method: "PUT", body: "12345" });
    const head = await app.request("/object?key=h.txt", { method: "HEAD" });
    assert.equal(head.status, 200);
    assert.equal(head.headers.get("content-length"), "5");
    assert.ok(head.headers.get("etag"));
    assert.equal(await head.text(), "");
    const missing = await app.request("/object?key=nope", { method: "HEAD" });
    assert.equal(missing.status, 404);
  });

  await t.step("Range gives 206 with Content-Range; an unsatisfiable one 416", async () => {
    const { app } = await freshApp(backend);
    await app.request("/object?key=r.txt", { method: "PUT", body: "0123456789" });
    const cases: [string, string, string][] = [
      ["bytes=2-5", "2345", "bytes 2-5/10"],
      ["bytes=7-", "789", "bytes 7-9/10"],
      ["bytes=-3", "789", "bytes 7-9/10"],
      ["bytes=8-100", "89", "bytes 8-9/10"],
    ];
    for (const [range, body, contentRange] of cases) {
      const res = await app.request("/object?key=r.txt", { headers: { range } });
      assert.equal(res.status, 206, range);
      assert.equal(res.headers.get("content-range"), contentRange, range);
      assert.equal(res.headers.get("content-length"), String(body.length), range);
      assert.equal(await res.text(), body, range);
    }
    const unsatisfiable = await app.request("/object?key=r.txt", {
      headers: { range: "bytes=10-" },
    });
    assert.equal(unsatisfiable.status, 416);
    assert.equal(unsatisfiable.headers.get("content-range"), "bytes */10");
    assert.deepEqual(await unsatisfiable.json(), {
      error: "Range not satisfiable",
      code: "INVALID_INPUT",
    });
    // Several ranges, another unit or nonsense: the whole object, as RFC 9110 allows.
    for (const range of ["bytes=0-1,4-5", "items=0-1", "bytes=5-2"]) {
      const res = await app.request("/object?key=r.txt", { headers: { range } });
      assert.equal(res.status, 200, range);
      assert.equal(await res.text(), "0123456789", range);
    }
    const head = await app.request("/object?key=r.txt", {
      method: "HEAD",
      headers: { range: "bytes=0-1" },
    });
    assert.equal(head.status, 200, "HEAD ignores Range");
  });

  await t.step("If-None-Match gives 304; If-Range guards Range", async () => {
    const { app } = await freshApp(backend);
    await app.request("/object?key=c.txt", { method: "PUT", body: "cached" });
    const first = await app.request("/object?key=c.txt");
    const etag = first.headers.get("etag")!;
    await first.body?.cancel();
    const hit = await app.request("/object?key=c.txt", { headers: { "if-none-match": etag } });
    assert.equal(hit.status, 304);
    assert.equal(hit.headers.get("etag"), etag);
    assert.equal(await hit.text(), "");
    const star = await app.request("/object?key=c.txt", { headers: { "if-none-match": "*" } });
    assert.equal(star.status, 304);
    const miss = await app.request("/object?key=c.txt", {
      headers: { "if-none-match": '"something-else"' },
    });
    assert.equal(miss.status, 200);
    assert.equal(await miss.text(), "cached");

    const current = await app.request("/object?key=c.txt", {
      headers: { range: "bytes=0-1", "if-range": etag },
    });
    assert.equal(current.status, 206);
    assert.equal(await current.text(), "ca");
    const stale = await app.request("/object?key=c.txt", {
      headers: { range: "bytes=0-1", "if-range": '"stale"' },
    });
    assert.equal(stale.status, 200);
    assert.equal(await stale.text(), "cached");
  });

  await t.step("a missing object is 404 NOT_FOUND", async () => {
    const { app } = await freshApp(backend);
    const res = await app.request("/object?key=missing.txt");
    assert.equal(res.status, 404);
    assert.deepEqual(await res.json(), { error: "Object not found", code: "NOT_FOUND" });
  });

  await t.step("listing pages through every key in byte order, with prefix", async () => {
    const { app } = await freshApp(backend);
    const keys = ["b/2.txt", "a.txt", "b/1.txt", "a-z.txt", "c", "b/é.txt", "b/z.txt"];
    for (const [i, key] of keys.entries()) {
      const res = await app.request(`/object?key=${q(key)}`, {
        method: "PUT",
        headers: { "content-type": `text/x-${i}` },
        body: "x".repeat(i + 1),
      });
      assert.equal(res.status, 200, key);
    }
    // Byte order: "-" (0x2d) < "." (0x2e) and "z" (0x7a) < "é" (0xc3 0xa9).
    const sorted = ["a-z.txt", "a.txt", "b/1.txt", "b/2.txt", "b/z.txt", "b/é.txt", "c"];
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const url: string = `/objects?limit=2${cursor ? `&cursor=${q(cursor)}` : ""}`;
      const res = await app.request(url);
      assert.equal(res.status, 200);
      const page = await res.json();
      pages++;
      assert.ok(page.objects.length <= 2);
      for (const o of page.objects) {
        const i = keys.indexOf(o.key);
        assert.equal(o.size, i + 1, o.key);
        assert.equal(o.contentType, `text/x-${i}`, o.key);
        assert.match(o.etag, /^"[^"]+"$/);
        assert.ok(!Number.isNaN(Date.parse(o.uploadedAt)));
        seen.push(o.key);
      }
      cursor = page.cursor;
    } while (cursor !== null && pages < 10);
    assert.deepEqual(seen, sorted);
    assert.equal(pages, 4);

    const prefixed = await (await app.request("/objects?prefix=b/&limit=1000")).json();
    assert.deepEqual(prefixed.objects.map((o: { key: string }) => o.key), sorted.slice(2, 6));
    assert.equal(prefixed.cursor, null);
    const all = await (await app.request("/objects")).json();
    assert.equal(all.objects.length, keys.length, "default limit covers them");
    assert.equal(all.cursor, null);
    const publicOnes = await (await app.request("/objects?public=true")).json();
    assert.deepEqual(publicOnes, { objects: [], cursor: null });

    for (const bad of ["limit=0", "limit=1001", "limit=abc", "limit=-1"]) {
      const res = await app.request(`/objects?${bad}`);
      assert.equal(res.status, 400, bad);
      assert.equal((await res.json()).code, "INVALID_INPUT", bad);
    }
    for (const bad of ["not*base64", "Li4vZXRjL3Bhc3N3ZA"]) { // the second is "../etc/passwd"
      const res = await app.request(`/objects?cursor=${bad}`);
      assert.equal(res.status, 400, bad);
      assert.deepEqual(await res.json(), { error: "Invalid cursor", code: "INVALID_INPUT" });
    }
  });

  await t.step("delete removes the object; deleting again is 404", async () => {
    const { app } = await freshApp(backend);
    await app.request("/object?key=d/x.txt", { method: "PUT", body: "bye" });
    const del = await app.request("/object?key=d/x.txt", { method: "DELETE" });
    assert.equal(del.status, 200);
    assert.deepEqual(await del.json(), { key: "d/x.txt", deleted: true });
    assert.equal((await app.request("/object?key=d/x.txt")).status, 404);
    const again = await app.request("/object?key=d/x.txt", { method: "DELETE" });
    assert.equal(again.status, 404);
    assert.deepEqual(await again.json(), { error: "Object not found", code: "NOT_FOUND" });
    assert.deepEqual(await (await app.request("/objects")).json(), { objects: [], cursor: null });
  });

  await t.step("an upload without key is 400 with exactly {error: Missing key}", async () => {
    const { app } = await freshApp(backend);
    for (const path of ["/object", "/object?key=", "/object?public=true"]) {
      const res = await app.request(path, { method: "PUT", body: "x" });
      assert.equal(res.status, 400, path);
      assert.equal(await res.text(), '{"error":"Missing key"}', path);
    }
    for (const method of ["GET", "DELETE"]) {
      const res = await app.request("/object", { method });
      assert.equal(res.status, 400, method);
      assert.deepEqual(await res.json(), { error: "Key is required", code: "INVALID_INPUT" });
    }
  });

  await t.step("public uploads get a url with the key path-encoded", async () => {
    const base = "http://localhost:8008/public";
    const { app } = await freshApp(backend, { publicUrl: base });
    const key = "photos/summer 2024/été #1?.jpg";
    const put = await app.request(`/object?key=${q(key)}&public=true`, {
      method: "PUT",
      headers: { "content-type": "image/jpeg" },
      body: "jpeg",
    });
    assert.deepEqual(await put.json(), {
      key,
      uploaded: true,
      url: `${base}/photos/summer%202024/%C3%A9t%C3%A9%20%231%3F.jpg`,
    });
    // Private uploads, and public ones without PUBLIC_BUCKET_URL, get no url.
    const priv = await app.request("/object?key=p.txt&public=false", { method: "PUT", body: "p" });
    assert.deepEqual(await priv.json(), { key: "p.txt", uploaded: true });

    // The two buckets are separate.
    const fromPublic = await app.request(`/object?key=${q(key)}&public=true`);
    assert.equal(fromPublic.status, 200);
    assert.equal(fromPublic.headers.get("content-type"), "image/jpeg");
    assert.equal(await fromPublic.text(), "jpeg");
    assert.equal((await app.request(`/object?key=${q(key)}`)).status, 404);
    assert.equal((await app.request("/object?key=p.txt&public=true")).status, 404);
    const listed = await (await app.request("/objects?public=true")).json();
    assert.deepEqual(listed.objects.map((o: { key: string }) => o.key), [key]);

    // (A fresh app empties the S3 buckets, so this comes last.)
    const { app: noUrl } = await freshApp(backend);
    const pub = await noUrl.request("/object?key=p.txt&public=true", { method: "PUT", body: "p" });
    assert.deepEqual(await pub.json(), { key: "p.txt", uploaded: true });
  });

  await t.step("hostile keys are 400 and nothing is written anywhere", async () => {
    const { app } = await freshApp(backend);
    await app.request("/object?key=seed", { method: "PUT", body: "seed" });
    const before = await backend.files();
    const queries = [
      `key=${q("../../etc/passwd")}`,
      `key=${q("a/../../b")}`,
      "key=%2e%2e/x", // URL-encoded in the query…
      "key=../x", // …and decoded
      "key=%2e%2e%2fx",
      `key=${q("%2e%2e/x")}`, // decodes to a literal %2e%2e segment
      "key=a%00b",
      `key=${"k".repeat(2048)}`,
      `key=${q("/etc/passwd")}`,
      `key=${q("a//b")}`,
      `key=${q("a/./b")}`,
      `key=${q("a\\..\\b")}`,
      `key=${q("a/")}`,
      "key=a%0Ab",
    ];
    for (const query of queries) {
      for (const [method, body] of [["PUT", "pwned"], ["GET"], ["DELETE"], ["HEAD"]]) {
        const res = await app.request(`/object?${query}&public=true`, { method, body });
        assert.equal(res.status, 400, `${method} ${query}`);
        if (method !== "HEAD") {
          assert.deepEqual(await res.json(), { error: "Invalid key", code: "INVALID_INPUT" });
        }
      }
    }
    assert.deepEqual(await backend.files(), before, "no file was written or removed");
    const listed = await (await app.request("/objects")).json();
    assert.deepEqual(listed.objects.map((o: { key: string }) => o.key), ["seed"]);
  });

  await t.step("over MAX_OBJECT_BYTES is 413 and nothing is stored", async () => {
    const max = 6 * 1024 * 1024; // above one 5 MiB part, so S3 goes multipart
    const { app } = await freshApp(backend, { maxObjectBytes: max });
    await app.request("/object?key=keep", { method: "PUT", body: "previous" });
    const before = await backend.files();

    // Declared up front: refused before a byte is read.
    const declared = await app.request("/object?key=big", {
      method: "PUT",
      headers: { "content-length": String(max + 1) },
      body: streamOf(new Uint8Array(16)),
    });
    assert.equal(declared.status, 413);
    assert.deepEqual(await declared.json(), {
      error: `Object exceeds the limit of ${max} bytes`,
      code: "INVALID_INPUT",
    });

    // Streamed without a length: cut off once past the limit.
    for (const key of ["big", "keep"]) {
      const streamed = await app.request(`/object?key=${key}`, {
        method: "PUT",
        body: streamOf(new Uint8Array(max + 2 * 1024 * 1024)),
      });
      assert.equal(streamed.status, 413, key);
      assert.equal((await streamed.json()).code, "INVALID_INPUT");
    }
    // Exactly the limit is fine.
    const exact = await app.request("/object?key=exact", {
      method: "PUT",
      body: streamOf(new Uint8Array(max)),
    });
    assert.equal(exact.status, 200);

    assert.equal((await app.request("/object?key=big")).status, 404);
    assert.equal(await (await app.request("/object?key=keep")).text(), "previous");
    const keys = (await (await app.request("/objects")).json()).objects.map((o: { key: string }) =>
      o.key
    );
    assert.deepEqual(keys, ["exact", "keep"]);
    await app.request("/object?key=exact", { method: "DELETE" });
    assert.deepEqual(leftovers(before, await backend.files()), [], "no partial object");
  });

  await t.step("a body cut off mid-stream leaves no object and keeps the old one", async () => {
    const { app } = await freshApp(backend);
    await app.request("/object?key=cut", { method: "PUT", body: "old bytes" });
    const before = await backend.files();
    for (const key of ["cut", "cut-new"]) {
      const res = await app.request(`/object?key=${key}`, {
        method: "PUT",
        body: streamOf(randomBytes(6 * 1024 * 1024), 512 * 1024, true),
      });
      assert.equal(res.status, 400, key);
      assert.deepEqual(await res.json(), {
        error: "Request body could not be read",
        code: "INVALID_INPUT",
      });
    }
    assert.equal(await (await app.request("/object?key=cut")).text(), "old bytes");
    assert.equal((await app.request("/object?key=cut-new")).status, 404);
    assert.deepEqual(leftovers(before, await backend.files()), [], "no partial object");
  });
}

/** The admin token of the signing steps. */
const ADMIN_TOKEN = "admin-token-0123456789";
const SIGNING_KEY = "signing-key-0123456789abcdef0123456789";

/** An app with signed links on, its clock at `clock.now`. */
async function signingApp(backend: Backend, clock: { now: number }, options: FreshOptions = {}) {
  const bindings = await backend.fresh(options);
  const signing = await signingConfig(SIGNING_KEY, ADMIN_TOKEN);
  const app = createApp({ ...bindings, signing, now: () => clock.now }, { log: () => {} });
  return { app, bindings };
}

/** Asks `app` for a link; answers its URL relative to the service (path and query). */
async function sign(
  app: ReturnType<typeof createApp>,
  body: Record<string, unknown>,
  token = ADMIN_TOKEN,
): Promise<{ status: number; path: string; json: Record<string, unknown> }> {
  const res = await app.request("/object/sign", {
    method: "POST",
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  const path = typeof json.url === "string"
    ? new URL(json.url).pathname + new URL(json.url).search
    : "";
  return { status: res.status, path, json };
}

/** Signed links: every row, on every backend (the service enforces them, not the store). */
export async function signedLinkSuite(t: Deno.TestContext, backend: Backend): Promise<void> {
  const T0 = Date.UTC(2026, 0, 1);

  await t.step(
    "without OBJECT_SIGNING_KEY and OBJECT_ADMIN_TOKEN the routes are absent",
    async () => {
      const { app } = await freshApp(backend);
      const signRes = await app.request("/object/sign", {
        method: "POST",
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        body: JSON.stringify({ key: "a", method: "GET", expiresIn: 60 }),
      });
      assert.equal(signRes.status, 404);
      assert.equal((await signRes.json()).code, "NOT_FOUND");
      assert.equal((await app.request("/object/signed?key=a&expires=1&sig=x")).status, 404);
    },
  );

  await t.step("the signing route needs the admin token", async () => {
    const { app } = await signingApp(backend, { now: T0 });
    for (const token of ["", "wrong-token-0123456789", ADMIN_TOKEN + "x"]) {
      const res = await sign(app, { key: "a", method: "GET", expiresIn: 60 }, token);
      assert.equal(res.status, 401, token);
      assert.deepEqual(res.json, {
        error: "Missing or invalid admin token",
        code: "INVALID_INPUT",
      });
    }
  });

  await t.step(
    "a PUT link uploads once-named key with its type; every change breaks it",
    async () => {
      const clock = { now: T0 };
      const { app } = await signingApp(backend, clock);
      const link = await sign(app, {
        key: "inbox/report.pdf",
        method: "PUT",
        expiresIn: 600,
        maxBytes: 1024,
        contentType: "application/pdf",
      });
      assert.equal(link.status, 200);
      assert.equal(link.json.expiresAt, new Date(T0 + 600_000).toISOString());
      assert.ok(String(link.json.url).startsWith("http://localhost/object/signed?"));
      const put = (path: string, body: BodyInit, type = "application/pdf") =>
        app.request(path, { method: "PUT", headers: { "content-type": type }, body });

      const ok = await put(link.path, "%PDF-1.7 tiny");
      assert.equal(ok.status, 200);
      assert.deepEqual(await ok.json(), { key: "inbox/report.pdf", uploaded: true });
      const stored = await app.request(`/object?key=${q("inbox/report.pdf")}`);
      assert.equal(stored.headers.get("content-type"), "application/pdf");
      assert.equal(await stored.text(), "%PDF-1.7 tiny");

      const denied = async (res: Response, message: string, what: string) => {
        assert.equal(res.status, 403, what);
        assert.deepEqual(await res.json(), { error: message, code: "INVALID_INPUT" }, what);
      };
      const bad = "Invalid signature";
      await denied(await put(link.path.replace("report.pdf", "other.pdf"), "x"), bad, "other key");
      await denied(await put(link.path + "&public=true", "x"), bad, "other bucket");
      await denied(
        await put(link.path.replace(/maxBytes=\d+/, "maxBytes=99999"), "x"),
        bad,
        "size",
      );
      await denied(await put(link.path.replace(/expires=(\d+)/, "expires=9$1"), "x"), bad, "time");
      await denied(
        await put(link.path.replace(/sig=[^&]+/, "sig=" + "A".repeat(43)), "x"),
        bad,
        "sig",
      );
      await denied(await app.request(link.path), bad, "GET with a PUT link");
      await denied(
        await put(link.path, "x", "text/html"),
        "Content-Type does not match the signed URL",
        "type",
      );
      clock.now = T0 + 600_000;
      await denied(await put(link.path, "x"), "Signed URL has expired", "expired");
      assert.equal(
        await (await app.request(`/object?key=${q("inbox/report.pdf")}`)).text(),
        "%PDF-1.7 tiny",
      );
    },
  );

  await t.step("a body over the link's maxBytes is 413 and nothing is stored", async () => {
    const { app } = await signingApp(backend, { now: T0 });
    const link = await sign(app, { key: "big.bin", method: "PUT", expiresIn: 60, maxBytes: 1000 });
    const before = await backend.files();
    const declared = await app.request(link.path, {
      method: "PUT",
      body: randomBytes(1001) as BodyInit,
    });
    assert.equal(declared.status, 413);
    const streamed = await app.request(link.path, {
      method: "PUT",
      body: streamOf(randomBytes(64 * 1024), 4096),
    });
    assert.equal(streamed.status, 413);
    assert.equal((await streamed.json()).code, "INVALID_INPUT");
    assert.equal((await app.request("/object?key=big.bin")).status, 404);
    assert.deepEqual(leftovers(before, await backend.files()), [], "nothing stored");
    const fits = await app.request(link.path, {
      method: "PUT",
      body: randomBytes(1000) as BodyInit,
    });
    assert.equal(fits.status, 200);
  });

  await t.step("a GET link reads that key of that bucket until it expires", async () => {
    const clock = { now: T0 };
    const { app } = await signingApp(backend, clock);
    await app.request("/object?key=pub/cat.txt&public=true", { method: "PUT", body: "meow" });
    const link = await sign(app, {
      key: "pub/cat.txt",
      method: "GET",
      expiresIn: 30,
      public: true,
    });
    const res = await app.request(link.path);
    assert.equal(res.status, 200);
    assert.equal(await res.text(), "meow");
    assert.equal((await app.request(link.path, { method: "PUT", body: "woof" })).status, 403);
    assert.equal((await app.request(link.path.replace("&public=true", ""))).status, 403);
    clock.now = T0 + 29_999;
    assert.equal((await app.request(link.path)).status, 200);
    clock.now = T0 + 30_000;
    assert.equal((await app.request(link.path)).status, 403);
    const missing = await sign(app, { key: "nothing", method: "GET", expiresIn: 30 });
    assert.equal((await app.request(missing.path)).status, 404);
  });

  await t.step("a link signed with another key is refused", async () => {
    const { app } = await signingApp(backend, { now: T0 });
    const other = await signingConfig("another-signing-key-0123456789abcdef", ADMIN_TOKEN);
    const query = await signGrant(other, { method: "GET", key: "a", public: false, expires: 2e9 });
    assert.equal((await app.request(`/object/signed?${query}`)).status, 403);
  });

  await t.step("bad signing requests are 400 INVALID_INPUT", async () => {
    const { app } = await signingApp(backend, { now: T0 }, { maxObjectBytes: 5000 });
    for (
      const body of [
        { key: "../x", method: "GET", expiresIn: 60 },
        { key: "a", method: "POST", expiresIn: 60 },
        { key: "a", method: "GET", expiresIn: 0 },
        { key: "a", method: "GET", expiresIn: 7 * 24 * 3600 + 1 },
        { key: "a", method: "GET", expiresIn: 60, maxBytes: 10 },
        { key: "a", method: "PUT", expiresIn: 60, maxBytes: 5001 },
        { key: "a", method: "PUT", expiresIn: 60, contentType: "not a type" },
        { key: "a", method: "PUT", expiresIn: 60, extra: 1 },
      ]
    ) {
      const res = await sign(app, body);
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.json.code, "INVALID_INPUT", JSON.stringify(body));
    }
    const notJson = await app.request("/object/sign", {
      method: "POST",
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      body: "{",
    });
    assert.deepEqual(await notJson.json(), { error: "Invalid JSON", code: "INVALID_INPUT" });
  });
}

/**
 * Files present now that were not before. s3rver does not implement AbortMultipartUpload, so
 * its `uploads/` folder is left out here; s3_test.ts checks that the abort was sent instead.
 */
function leftovers(before: string[], after: string[]): string[] {
  const known = new Set(before);
  return after.filter((f) => !known.has(f) && !f.includes("._S3rver_uploads"));
}
