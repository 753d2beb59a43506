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
