import assert from "node:assert/strict";
import { BodyTooLargeError, guardBody } from "../../functions/object-storage/upload_body.ts";

const chunks = (sizes: number[], fail = false) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (const size of sizes) c.enqueue(new Uint8Array(size));
      if (fail) c.error(new Error("reset"));
      else c.close();
    },
  });

Deno.test("a body within the limit passes whole", async () => {
  const body = guardBody(chunks([4, 4, 2]), 10);
  assert.equal((await new Response(body.stream).arrayBuffer()).byteLength, 10);
  assert.equal(body.tooLarge, false);
  assert.equal(body.readFailed, false);
});

Deno.test("no body is an empty one", async () => {
  const body = guardBody(null, 10);
  assert.equal((await new Response(body.stream).arrayBuffer()).byteLength, 0);
});

Deno.test("one byte over the limit fails the stream and cancels the source", async () => {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    pull(c) {
      c.enqueue(new Uint8Array(4));
    },
    cancel() {
      cancelled = true;
    },
  });
  const body = guardBody(source, 10);
  await assert.rejects(new Response(body.stream).arrayBuffer(), BodyTooLargeError);
  assert.equal(body.tooLarge, true);
  assert.equal(body.readFailed, false);
  assert.equal(cancelled, true, "the rest of an endless body is not read");
});

Deno.test("a source that errors is reported as a failed read", async () => {
  const body = guardBody(chunks([3], true), 10);
  await assert.rejects(new Response(body.stream).arrayBuffer(), /reset/);
  assert.equal(body.readFailed, true);
  assert.equal(body.tooLarge, false);
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

Deno.test("a BYOB reader of the guarded body fills its own buffer from a byte stream", async () => {
  const { stream, buffers } = byteSource(10_000);
  const body = guardBody(stream, 10_000);
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
  assert.equal(body.tooLarge, false);
});

Deno.test("the limit and a failed read hold for byte-stream sources too", async () => {
  const over = guardBody(byteSource(10_001).stream, 10_000);
  await assert.rejects(new Response(over.stream).arrayBuffer(), BodyTooLargeError);
  assert.equal(over.tooLarge, true);

  const broken = guardBody(byteSource(5_000, true).stream, 10_000);
  await assert.rejects(new Response(broken.stream).arrayBuffer(), /reset/);
  assert.equal(broken.readFailed, true);

  const exact = guardBody(byteSource(10_000).stream, 10_000);
  assert.equal((await new Response(exact.stream).arrayBuffer()).byteLength, 10_000);
});

Deno.test("a body that stalls fails as a read failure after the idle timeout", async () => {
  let cancelled = false;
  const source = new ReadableStream<Uint8Array>({
    start(c) {
      c.enqueue(new Uint8Array(10));
    },
    cancel() {
      cancelled = true;
    },
  });
  const guarded = guardBody(source, 1024, 100);
  const err = await new Response(guarded.stream).arrayBuffer().catch((e) => e);
  assert.ok(err instanceof Error);
  assert.equal(guarded.readFailed, true);
  assert.equal(guarded.tooLarge, false);
  assert.ok(cancelled, "the stalled source was cancelled");
});
