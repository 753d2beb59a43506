/**
 * The streaming body limit: a chunked body with no Content-Length is refused with 413 the
 * moment it passes the limit, while the client is still sending (over a real socket); the
 * limited stream errors at the limit, on a stall and when its source breaks, says which, and
 * hands a BYOB reader's buffer to a byte-stream source.
 */
import assert from "node:assert/strict";
import { Hono } from "hono";
import { ApiError, onError } from "../../../shared/contract/errors.ts";
import { endedByDeadline } from "../../support/deadline_race.ts";
import {
  BodyStalledError,
  limitBody,
  type LimitedBody,
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

Deno.test("readBodyLimited: a body larger than its first buffer comes back whole, in order", async () => {
  const bytes = new Uint8Array(200_000).map((_, i) => i % 251);
  const parts = () => [bytes.subarray(0, 1), bytes.subarray(1, 70_000), bytes.subarray(70_000)];
  const plain = parts();
  // A plain stream (as app.request() gives) and a byte stream (as Deno.serve gives).
  const bodies = {
    plain: new ReadableStream<Uint8Array>({
      pull: (c) => plain.length ? c.enqueue(plain.shift()!.slice()) : c.close(),
    }),
    bytes: new ReadableStream({
      type: "bytes",
      start(c) {
        for (const part of parts()) c.enqueue(part.slice());
        c.close();
      },
    }),
  };
  for (const [name, body] of Object.entries(bodies)) {
    const req = new Request("http://x/", { method: "POST", body });
    assert.deepEqual(await readBodyLimited(req, 1024 * 1024), bytes, name);
  }
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

const chunks = (sizes: number[], fail = false) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const size of sizes) c.enqueue(new Uint8Array(size));
      if (fail) c.error(new Error("reset"));
      else c.close();
    },
  });

/** Asserts that `body` failed with `status` and that its stream rejects with that error. */
async function assertFails(body: LimitedBody, status: number, message: RegExp) {
  const err = await new Response(body.stream).arrayBuffer().catch((e) => e);
  assert.ok(err instanceof ApiError, String(err));
  assert.equal(body.failure, err);
  assert.equal(err.status, status);
  assert.equal(err.code, "INVALID_INPUT");
  assert.match(err.message, message);
}

Deno.test("limitBody: a body within the limit passes whole; none is an empty one", async () => {
  const ok = limitBody(chunks([4, 4, 2]), 10);
  assert.equal((await new Response(ok.stream).arrayBuffer()).byteLength, 10);
  assert.equal(ok.failure, undefined);
  const none = limitBody(null, 10);
  assert.equal((await new Response(none.stream).arrayBuffer()).byteLength, 0);
});

Deno.test("limitBody: one byte over the limit is a 413 naming the subject; the source is cancelled", async () => {
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new Uint8Array(4));
    },
    cancel() {
      cancelled = true;
    },
  });
  await assertFails(
    limitBody(endless, 10, { subject: "Object" }),
    413,
    /^Object exceeds the limit of 10 bytes$/,
  );
  assert.equal(cancelled, true, "the rest of an endless body is not read");
});

Deno.test("limitBody: a source that errors is a 400", async () => {
  await assertFails(limitBody(chunks([3], true), 10), 400, /^Request body could not be read$/);
});

/** A byte stream of `total` bytes that records the size of each buffer it is asked to fill. */
function byteSource(total: number, fail = false) {
  const buffers: number[] = [];
  let sent = 0;
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: 1000,
    pull(c) {
      const request = c.byobRequest!;
      if (sent >= total) {
        if (fail) return c.error(new Error("reset"));
        c.close();
        request.respond(0);
        return;
      }
      const view = request.view!;
      buffers.push(view.buffer.byteLength);
      const n = Math.min(view.byteLength, total - sent);
      sent += n;
      request.respond(n);
    },
  });
  return { stream, buffers };
}

Deno.test("limitBody: a BYOB reader fills its own buffer from a byte-stream source", async () => {
  const { stream, buffers } = byteSource(10_000);
  const body = limitBody(stream, 10_000);
  const reader = body.stream.getReader({ mode: "byob" });
  let buffer = new ArrayBuffer(4096);
  let total = 0;
  while (true) {
    const { value, done } = await reader.read(new Uint8Array(buffer));
    if (value) buffer = value.buffer as ArrayBuffer;
    if (done) break;
    total += value!.byteLength;
  }
  assert.equal(total, 10_000);
  // The source filled the reader's 4 KiB buffer, never a chunk of its own (1000 bytes).
  assert.ok(buffers.every((size) => size === 4096), buffers.join());
  assert.equal(body.failure, undefined);
});

Deno.test("limitBody: the limit and a failed read hold for byte-stream sources too", async () => {
  await assertFails(limitBody(byteSource(10_001).stream, 10_000), 413, /exceeds/);
  await assertFails(limitBody(byteSource(5_000, true).stream, 10_000), 400, /could not be read/);
  const exact = limitBody(byteSource(10_000).stream, 10_000);
  assert.equal((await new Response(exact.stream).arrayBuffer()).byteLength, 10_000);
});

Deno.test("limitBody: a body that stalls is a 408 after the idle timeout; the source is cancelled", async () => {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(10));
    },
    cancel() {
      cancelled = true;
    },
  });
  await assertFails(limitBody(source, 1024, { idleMs: 100 }), 408, /stalled/);
  assert.ok(cancelled, "the stalled source was cancelled");
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
  const err = await endedByDeadline(readBodyLimited(req, 1024, 100).catch((e) => e), 100);
  assert.ok(err instanceof BodyStalledError, String(err));
  assert.equal(err.status, 408);
  assert.equal(err.code, "INVALID_INPUT");
  assert.ok(cancelled, "the stalled body was cancelled");
});
