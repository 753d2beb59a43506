/**
 * The streaming body limit: a chunked body with no Content-Length is refused with 413 the
 * moment it passes the limit, while the client is still sending (over a real socket), and
 * the pass-through stream errors at the limit.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { onError } from "../../../shared/contract/errors.ts";
import {
  BodyStalledError,
  limitBody,
  readBodyLimited,
} from "../../../shared/contract/body_limit.ts";

const LIMIT = 8 * 1024;
const CHUNK = 64 * 1024;
/** The most the test client will send (the old read-it-all code would wait for all of it). */
const SEND_CAP = 64 * 1024 * 1024;

Deno.test("readBodyLimited: bodies up to the limit whole; Content-Length over it refused unread", async () => {
  const small = new Request("http://x/", { method: "POST", body: "a".repeat(LIMIT) });
  assert.equal((await readBodyLimited(small, LIMIT)).length, LIMIT);
  const empty = new Request("http://x/", { method: "POST" });
  assert.equal((await readBodyLimited(empty, LIMIT)).length, 0);
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1000));
    },
  });
  const declared = new Request("http://x/", {
    method: "POST",
    body: stream,
    headers: { "content-length": String(LIMIT + 1) },
  });
  await assert.rejects(readBodyLimited(declared, LIMIT), (err: Error & { status?: number }) => {
    assert.equal(err.status, 413);
    assert.equal(err.message, `Request body exceeds the limit of ${LIMIT} bytes`);
    return true;
  });
  assert.ok(pulled <= 1, `read ${pulled} chunks of a body declared too large`);
});

Deno.test("readBodyLimited: an endless stream stops being read at the limit", async () => {
  let pulled = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new Uint8Array(1024));
    },
    cancel() {
      cancelled = true;
    },
  });
  const req = new Request("http://x/", { method: "POST", body: endless });
  await assert.rejects(readBodyLimited(req, LIMIT), /exceeds the limit of 8192 bytes/);
  assert.ok(pulled <= LIMIT / 1024 + 2, `pulled ${pulled} chunks`);
  assert.ok(cancelled, "the source was cancelled");
});

Deno.test("limitBody: passes bytes through, errors with 413 at the limit", async () => {
  const ok = limitBody(new Response("x".repeat(LIMIT)).body!, LIMIT);
  assert.equal((await new Response(ok).arrayBuffer()).byteLength, LIMIT);
  const over = limitBody(new Response("x".repeat(LIMIT + 1)).body!, LIMIT);
  await assert.rejects(new Response(over).arrayBuffer(), /exceeds the limit of 8192 bytes/);
});

Deno.test("a chunked POST over a socket is answered 413 while the client is still sending", async () => {
  const app = new Hono();
  app.onError(onError);
  app.post("/", async (c) => c.json({ bytes: (await readBodyLimited(c.req.raw, LIMIT)).length }));
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: server.addr.port });
  try {
    const enc = new TextEncoder();
    await conn.write(enc.encode(
      "POST / HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n" +
        "Transfer-Encoding: chunked\r\n\r\n",
    ));
    let answer = "";
    const reading = (async () => {
      const buf = new Uint8Array(4096);
      const deadline = AbortSignal.timeout(10_000);
      while (!answer.includes("\r\n\r\n") && !deadline.aborted) {
        const n = await conn.read(buf).catch(() => null);
        if (n === null) break;
        answer += new TextDecoder().decode(buf.subarray(0, n));
      }
    })();
    const chunk = enc.encode(`${CHUNK.toString(16)}\r\n${"x".repeat(CHUNK)}\r\n`);
    let sent = 0;
    // Keep sending until the answer arrives, the server stops taking bytes, or the cap.
    while (sent < SEND_CAP && !answer) {
      const wrote = await Promise.race([
        conn.write(chunk).then(() => true, () => false),
        new Promise<boolean>((r) => setTimeout(() => r(false), 2_000)),
      ]);
      if (!wrote) break;
      sent += CHUNK;
    }
    await reading;
    assert.match(answer, /^HTTP\/1\.1 413 /, answer.slice(0, 200));
    assert.ok(sent < SEND_CAP / 4, `the client got to send ${sent} bytes before the answer`);
  } finally {
    try {
      conn.close();
    } catch {
      // closed by the server
    }
    await server.shutdown();
  }
});

Deno.test("a body that stalls is cancelled with 408 after the idle timeout", async () => {
  let cancelled = false;
  const body = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new TextEncoder().encode('{"url":'));
    },
    cancel() {
      cancelled = true;
    },
  });
  const req = new Request("http://x/", { method: "POST", body });
  const started = performance.now();
  const err = await readBodyLimited(req, 1024, 100).catch((e) => e);
  assert.ok(err instanceof BodyStalledError, String(err));
  assert.equal(err.status, 408);
  assert.equal(err.code, "INVALID_INPUT");
  assert.ok(performance.now() - started < 5_000);
  assert.ok(cancelled, "the stalled body was cancelled");
});
