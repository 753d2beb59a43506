/**
 * shared/bucket_s3_upload.ts against s3rver through the real S3 client: part boundaries,
 * byte streams (BYOB) and plain streams, the queue bound, streaming before the body ends, and
 * every failure path ending in an abort with nothing stored.
 */
import assert from "node:assert/strict";
import { GetObjectCommand, HeadObjectCommand } from "@aws-sdk/client-s3";
import { PartBufferPool, uploadStream } from "../../../../shared/bindings/bucket/s3_upload.ts";
import { startS3rver } from "../../../support/s3rver.ts";

const MiB = 1024 * 1024;
const PART = 5 * MiB;

function randomBytes(size: number): Uint8Array<ArrayBuffer> {
  const out = new Uint8Array(size);
  for (let i = 0; i < size; i += 65536) crypto.getRandomValues(out.subarray(i, i + 65536));
  return out;
}

/** A plain stream of `bytes` in `chunk`-sized pieces. */
function plainStream(bytes: Uint8Array, chunk = 256 * 1024): ReadableStream<Uint8Array> {
  let offset = 0;
  return new ReadableStream({
    pull(c) {
      if (offset >= bytes.length) return c.close();
      c.enqueue(bytes.slice(offset, offset + chunk));
      offset += chunk;
    },
  });
}

/** A byte stream of `bytes` that answers BYOB reads by filling the reader's own view. */
function byteStream(bytes: Uint8Array, chunk = 64 * 1024) {
  let offset = 0;
  const seen = { byobReads: 0, bufferSizes: new Set<number>() };
  const stream = new ReadableStream({
    type: "bytes",
    autoAllocateChunkSize: chunk,
    pull(c) {
      const request = c.byobRequest!;
      if (offset >= bytes.length) {
        c.close();
        request.respond(0);
        return;
      }
      const view = request.view as Uint8Array;
      seen.bufferSizes.add(view.buffer.byteLength);
      const n = Math.min(view.byteLength, chunk, bytes.length - offset);
      view.set(bytes.subarray(offset, offset + n));
      offset += n;
      seen.byobReads++;
      request.respond(n);
    },
  });
  return { stream, seen };
}

async function sha256(bytes: Uint8Array | ArrayBuffer): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", bytes as BufferSource);
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

Deno.test("uploadStream against s3rver", async (t) => {
  const s3 = await startS3rver(["up"]);
  // Every command sent, and the most UploadParts in flight at once.
  const sent: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  let failPart: number | undefined;
  s3.client.middlewareStack.add(
    (next, context) => async (args) => {
      const name = context.commandName as string;
      sent.push(name);
      if (name !== "UploadPartCommand") return next(args);
      const input = args.input as { PartNumber?: number };
      if (input.PartNumber === failPart) throw new Error("part refused");
      maxInFlight = Math.max(maxInFlight, ++inFlight);
      try {
        return await next(args);
      } finally {
        inFlight--;
      }
    },
    { step: "initialize", name: "recordCommands" },
  );
  const options = (key: string) => ({
    client: s3.client,
    bucket: "up",
    key,
    contentType: "application/x-test",
    partSize: PART,
    queueSize: 2,
    maxParts: 10_000,
  });
  const stored = async (key: string) => {
    const out = await s3.client.send(new GetObjectCommand({ Bucket: "up", Key: key }));
    return { type: out.ContentType, bytes: await out.Body!.transformToByteArray() };
  };
  const exists = async (key: string) => {
    try {
      await s3.client.send(new HeadObjectCommand({ Bucket: "up", Key: key }));
      return true;
    } catch {
      return false;
    }
  };

  try {
    await t.step("every size around the boundaries arrives byte-identical", async () => {
      const sizes = [0, 1, 64 * 1024, 64 * 1024 + 1, PART - 1, PART, PART + 1, 2 * PART + 3];
      for (const size of sizes) {
        for (const kind of ["plain", "byte"] as const) {
          const bytes = randomBytes(size);
          const body = kind === "plain" ? plainStream(bytes) : byteStream(bytes).stream;
          sent.length = 0;
          const key = `size-${size}-${kind}`;
          const result = await uploadStream(body, options(key));
          const commands = [...sent];
          assert.equal(result.size, size, key);
          assert.match(result.etag, /^"[^"]+"$/, key);
          const back = await stored(key);
          assert.equal(back.type, "application/x-test", key);
          assert.equal(await sha256(back.bytes), await sha256(bytes), key);
          const multipart = commands.includes("CreateMultipartUploadCommand");
          assert.equal(multipart, size >= PART, `${key}: ${commands.join()}`);
          if (!multipart) assert.deepEqual(commands, ["PutObjectCommand"], key);
        }
      }
    });

    await t.step("a byte stream is read into the part buffers (BYOB)", async () => {
      const bytes = randomBytes(2 * PART + 10);
      const { stream, seen } = byteStream(bytes, 1024 * 1024);
      await uploadStream(stream, options("byob"));
      // The reads fill the uploader's own buffers (64 KiB first, then 5 MiB parts), not
      // chunks the stream allocates (1 MiB here).
      assert.deepEqual([...seen.bufferSizes].sort((a, b) => a - b), [64 * 1024, PART]);
      // 64 KiB per read at most (see MAX_READ).
      assert.equal(seen.byobReads, Math.ceil(bytes.length / (64 * 1024)));
      assert.equal(await sha256((await stored("byob")).bytes), await sha256(bytes));
    });

    await t.step("at most queueSize parts are in flight", async () => {
      maxInFlight = 0;
      sent.length = 0;
      await uploadStream(plainStream(randomBytes(6 * PART)), options("queue"));
      assert.equal(sent.filter((c) => c === "UploadPartCommand").length, 6);
      assert.ok(maxInFlight >= 1 && maxInFlight <= 2, String(maxInFlight));
    });

    await t.step("part buffers: at most queueSize per upload, reused by the next", async () => {
      class CountingPool extends PartBufferPool {
        allocated = 0;
        override take(): ArrayBuffer {
          if (this.idle === 0) this.allocated++;
          return super.take();
        }
      }
      const pool = new CountingPool(PART, 2);
      for (const kind of ["plain", "byte"] as const) {
        const bytes = randomBytes(5 * PART + 7);
        const body = kind === "plain" ? plainStream(bytes) : byteStream(bytes).stream;
        await uploadStream(body, { ...options(`pooled-${kind}`), pool });
        assert.equal(await sha256((await stored(`pooled-${kind}`)).bytes), await sha256(bytes));
        assert.ok(pool.allocated <= 2, `${kind}: ${pool.allocated} buffers allocated`);
        assert.ok(pool.idle >= 1 && pool.idle <= 2, `${kind}: ${pool.idle} idle`);
      }
      // A small body takes a part buffer only past 64 KiB, and gives it back.
      await uploadStream(plainStream(randomBytes(100 * 1024)), { ...options("pooled-s"), pool });
      assert.ok(pool.allocated <= 2, String(pool.allocated));
      await assert.rejects(
        uploadStream(plainStream(new Uint8Array(1)), { ...options("x"), pool, partSize: 6 * MiB }),
        /not partSize/,
      );
    });

    await t.step("parts go up while the body is still arriving", async () => {
      sent.length = 0;
      let offset = 0;
      const bytes = randomBytes(3 * PART);
      const body = new ReadableStream<Uint8Array>({
        async pull(c) {
          if (offset === 2 * PART) {
            // Hold the rest back until the store has received a part.
            const deadline = Date.now() + 10_000;
            while (!sent.includes("UploadPartCommand")) {
              if (Date.now() > deadline) {
                return c.error(new Error("no part was sent before the body ended"));
              }
              await new Promise((r) => setTimeout(r, 10));
            }
          }
          if (offset >= bytes.length) return c.close();
          c.enqueue(bytes.slice(offset, offset + MiB));
          offset += MiB;
        },
      });
      await uploadStream(body, options("streamed"));
      assert.equal(await sha256((await stored("streamed")).bytes), await sha256(bytes));
    });

    await t.step("a body that fails mid-way aborts the upload; nothing is stored", async () => {
      sent.length = 0;
      let offset = 0;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          if (offset >= 2 * PART + MiB) return c.error(new Error("connection reset"));
          c.enqueue(new Uint8Array(MiB));
          offset += MiB;
        },
      });
      await assert.rejects(uploadStream(body, options("cut")), /connection reset/);
      assert.ok(sent.includes("AbortMultipartUploadCommand"), sent.join());
      assert.ok(!sent.includes("CompleteMultipartUploadCommand"), sent.join());
      assert.equal(await exists("cut"), false);
    });

    await t.step("a refused part aborts the upload and cancels the body", async () => {
      sent.length = 0;
      failPart = 2;
      let cancelled: unknown;
      const body = new ReadableStream<Uint8Array>({
        pull(c) {
          c.enqueue(new Uint8Array(MiB)); // endless: only a cancel stops it
        },
        cancel(reason) {
          cancelled = reason;
        },
      });
      try {
        await assert.rejects(uploadStream(body, options("refused")), /part refused/);
      } finally {
        failPart = undefined;
      }
      assert.match(String(cancelled), /part refused/);
      assert.ok(sent.includes("AbortMultipartUploadCommand"), sent.join());
      assert.ok(!sent.includes("CompleteMultipartUploadCommand"), sent.join());
      assert.equal(await exists("refused"), false);
    });

    await t.step("a missing bucket rejects and cancels the body", async () => {
      for (const size of [10, 2 * PART]) {
        let cancelled = false;
        let offset = 0;
        const body = new ReadableStream<Uint8Array>({
          pull(c) {
            if (offset >= size) return c.close();
            const n = Math.min(MiB, size - offset);
            c.enqueue(new Uint8Array(n));
            offset += n;
          },
          cancel() {
            cancelled = true;
          },
        });
        await assert.rejects(
          uploadStream(body, { ...options("x"), bucket: "no-such-bucket" }),
          (err: Error) => err.name === "NoSuchBucket",
        );
        // A small body was read whole before the PutObject; a large one is cancelled.
        if (size > 10) assert.ok(cancelled, "body cancelled");
      }
    });

    await t.step("more parts than maxParts is refused and aborted", async () => {
      sent.length = 0;
      await assert.rejects(
        uploadStream(plainStream(new Uint8Array(3 * PART)), { ...options("many"), maxParts: 2 }),
        /more than 2 parts/,
      );
      assert.ok(sent.includes("AbortMultipartUploadCommand"), sent.join());
      assert.equal(await exists("many"), false);
    });
  } finally {
    await s3.close();
  }
});
