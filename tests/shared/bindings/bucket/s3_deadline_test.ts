/**
 * Deadlines of S3 calls against stores that stop answering (tests/support/frozen_s3.ts): every
 * bucket operation fails with S3TimeoutError close to its deadline instead of hanging.
 */
import assert from "node:assert/strict";
import {
  idleLimit,
  s3Call,
  S3TimeoutError,
  type S3Timeouts,
} from "../../../../shared/bindings/bucket/s3_deadline.ts";
import { createS3Client, S3Bucket } from "../../../../shared/bindings/bucket/s3.ts";
import {
  type FrozenStore,
  STALLED_GET_PREFIX,
  startSilentStore,
  startStallingStore,
} from "../../../support/frozen_s3.ts";
import { endedByDeadline } from "../../../support/deadline_race.ts";
import { s3rverSettings } from "../../../support/s3rver.ts";

const TIMEOUTS: S3Timeouts = { requestMs: 300, partMs: 800 };
/**
 * For the in-process stalling store, whose answers share this busy event loop: the calls it does
 * answer get a generous deadline, so only the deadline under test can pass.
 */
const PART_TIMEOUTS: S3Timeouts = { requestMs: 5_000, partMs: 800 };
const BODY_TIMEOUTS: S3Timeouts = { requestMs: 1_000, partMs: 5_000 };
/** Runs `fn` on a bucket of `store`; closes both. */
async function withBucket(
  store: FrozenStore,
  fn: (bucket: S3Bucket) => Promise<void>,
  timeouts = TIMEOUTS,
): Promise<void> {
  const client = createS3Client(s3rverSettings(store.endpoint, { timeouts }));
  try {
    await fn(new S3Bucket({ client, bucket: "frozen", timeouts }));
  } finally {
    client.destroy();
    await store.close();
  }
}

/** Asserts that `promise` rejects with S3TimeoutError, ended by its `ms` deadline, not before. */
async function failsAtDeadline(label: string, ms: number, promise: Promise<unknown>) {
  const started = performance.now();
  await assert.rejects(endedByDeadline(promise, ms), (err: Error) => {
    assert.ok(err instanceof S3TimeoutError, `${label}: ${err.name}: ${err.message}`);
    return true;
  });
  const took = performance.now() - started;
  assert.ok(took >= ms * 0.9, `${label} gave up early: ${took.toFixed(0)} ms`);
}

const bytes = (n: number) =>
  new ReadableStream<Uint8Array>({
    start(c) {
      for (let i = 0; i < n; i += 1024 * 1024) {
        c.enqueue(new Uint8Array(Math.min(1024 ** 2, n - i)));
      }
      c.close();
    },
  });

Deno.test("s3Call aborts the call and rejects with S3TimeoutError", async () => {
  let signal: AbortSignal | undefined;
  await failsAtDeadline(
    "a call that never settles",
    200,
    s3Call("Test", 200, (s) => {
      signal = s;
      return new Promise((_, reject) => s.addEventListener("abort", () => reject(new Error("x"))));
    }),
  );
  assert.equal(signal?.aborted, true, "the SDK is told to give up");
  assert.equal(await s3Call("Quick", 1000, () => Promise.resolve(7)), 7);
  await assert.rejects(
    s3Call("Failing", 1000, () => Promise.reject(new Error("own failure"))),
    /own failure/,
  );
});

Deno.test("idleLimit fails a stalled read, and waits on a slow reader", async () => {
  const stalled = new ReadableStream<Uint8Array>({
    start: (c) => c.enqueue(new Uint8Array(3)),
    pull: () => new Promise(() => {}),
  });
  const reader = idleLimit(stalled, 200, "Body").getReader();
  assert.equal((await reader.read()).value?.byteLength, 3);
  await failsAtDeadline("the next read", 200, reader.read());

  // A consumer that waits longer than the limit between reads is not cut off.
  const slow = idleLimit(bytes(3 * 1024 * 1024), 100, "Body").getReader();
  let total = 0;
  while (true) {
    await new Promise((r) => setTimeout(r, 150));
    const { value, done } = await slow.read();
    if (done) break;
    total += value.byteLength;
  }
  assert.equal(total, 3 * 1024 * 1024);

  // Reads that each take most of the limit, and together several times it, are not cut off:
  // the limit is per read, not since the first one.
  let sent = 0;
  const unhurried = new ReadableStream<Uint8Array>({
    pull: async (c) => {
      await new Promise((r) => setTimeout(r, 120));
      if (sent++ < 6) c.enqueue(new Uint8Array(1));
      else c.close();
    },
  }, { highWaterMark: 0 });
  assert.equal(await byteCount(idleLimit(unhurried, 300, "Body")), 6);
  // The last chunk came, then the stream ended: no timer is left behind (the test sanitizer).
});

async function byteCount(stream: ReadableStream<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const chunk of stream) n += chunk.byteLength;
  return n;
}

Deno.test("a store that accepts and never answers: every operation passes its deadline", () =>
  withBucket(startSilentStore(), async (bucket) => {
    const put = { contentType: "text/plain" };
    const { requestMs, partMs } = TIMEOUTS;
    await failsAtDeadline("small put", partMs, bucket.put("k", bytes(10), put));
    await failsAtDeadline("multipart put", requestMs, bucket.put("k", bytes(12 * 1024 ** 2), put));
    await failsAtDeadline("get", requestMs, bucket.get("k"));
    await failsAtDeadline(
      "ranged get",
      requestMs,
      bucket.get("k", { range: { start: 0, end: 1 } }),
    );
    await failsAtDeadline("head", requestMs, bucket.head("k"));
    await failsAtDeadline("delete", requestMs, bucket.delete("k"));
    await failsAtDeadline("list", requestMs, bucket.list({ limit: 10 }));
  }));

Deno.test("a part that never gets its answer passes the part deadline; the upload is aborted", () => {
  const store = startStallingStore();
  return withBucket(store, async (bucket) => {
    await failsAtDeadline(
      "multipart put",
      PART_TIMEOUTS.partMs,
      bucket.put("k", bytes(12 * 1024 ** 2), { contentType: "text/plain" }),
    );
    const methods = store.requests.map((r) => r.split(" ")[0]);
    assert.equal(methods[0], "POST", store.requests.join());
    assert.ok(store.requests.some((r) => r.startsWith("PUT ") && r.includes("partNumber=1")));
    assert.equal(methods.at(-1), "DELETE", `aborted: ${store.requests.join()}`);
    assert.ok(!store.requests.some((r) => r.startsWith("POST ") && r.includes("uploadId=")));
  }, PART_TIMEOUTS);
});

Deno.test("a GET body that stops mid-way fails the read after the request deadline", () =>
  withBucket(startStallingStore(), async (bucket) => {
    const object = await bucket.get("k");
    assert.ok(object);
    const reader = object.body.getReader();
    let received = 0;
    const started = performance.now();
    const read = (async () => {
      while (true) {
        const { value, done } = await reader.read();
        if (done) return;
        received += value.byteLength;
      }
    })();
    await assert.rejects(endedByDeadline(read, BODY_TIMEOUTS.requestMs), S3TimeoutError);
    const took = performance.now() - started;
    assert.equal(received, STALLED_GET_PREFIX, "the bytes that came are passed on");
    assert.ok(took >= BODY_TIMEOUTS.requestMs * 0.9, `gave up early: ${took.toFixed(0)} ms`);
  }, BODY_TIMEOUTS));
