import assert from "node:assert/strict";
import { join } from "node:path";
import { InvalidKeyError, ObjectChangedError } from "../../../../shared/bindings/bucket/bucket.ts";
import { FsBucket, SWEEP_GRACE_MS } from "../../../../shared/bindings/bucket/fs.ts";
import { listFiles } from "../../../object-storage/backends.ts";
import { read, streamOf, text } from "../../../support/text_stream.ts";

/** A bucket two folders deep in a temporary folder, so escapes would still land in `root`. */
async function withBucket(fn: (bucket: FsBucket, root: string) => Promise<void>) {
  const root = await Deno.makeTempDir({ prefix: "bucket-fs-" });
  try {
    await fn(new FsBucket(join(root, "buckets", "private")), root);
  } finally {
    await Deno.remove(root, { recursive: true });
  }
}

Deno.test("put, head, get, range, delete", () =>
  withBucket(async (bucket) => {
    const info = await bucket.put("a/b.txt", streamOf("hello ", "world"), {
      contentType: "text/plain",
    });
    assert.equal(info.size, 11);
    assert.equal(info.etag, '"5eb63bbbe01eeed093cb22bb8f5acdc3"', "MD5, as S3 computes it");
    assert.deepEqual(await bucket.head("a/b.txt"), info);

    const whole = await bucket.get("a/b.txt");
    assert.equal(await read(whole!.body), "hello world");
    const part = await bucket.get("a/b.txt", { range: { start: 6, end: 9 } });
    assert.deepEqual(part!.range, { start: 6, end: 9 });
    assert.equal(await read(part!.body), "worl");

    assert.equal(await bucket.delete("a/b.txt"), true);
    assert.equal(await bucket.delete("a/b.txt"), false);
    assert.equal(await bucket.head("a/b.txt"), null);
    assert.equal(await bucket.get("a/b.txt"), null);
  }));

Deno.test("a key and a key below it coexist, as in S3", () =>
  withBucket(async (bucket) => {
    await bucket.put("a", streamOf("file"), { contentType: "text/plain" });
    await bucket.put("a/b", streamOf("below"), { contentType: "text/plain" });
    assert.equal(await read((await bucket.get("a"))!.body), "file");
    assert.equal(await read((await bucket.get("a/b"))!.body), "below");
    const page = await bucket.list({ limit: 10 });
    assert.deepEqual(page.objects.map((o) => o.key), ["a", "a/b"]);
  }));

Deno.test("no key becomes a path: every file is a hash name inside the folder", () =>
  withBucket(async (bucket, root) => {
    for (const key of ["x", "deep/er/key.txt", "%2e%2e%2e", "..x/y.."]) {
      await bucket.put(key, streamOf(key), { contentType: "text/plain" });
    }
    const files = await listFiles(root);
    assert.equal(files.length, 8, files.join());
    for (const file of files) {
      assert.match(file, /^buckets\/private\/objects\/[0-9a-f]{64}\.([0-9a-f-]{36}|json)$/);
    }
    assert.deepEqual(await listFiles(join(bucket.root, "tmp")), []);
  }));

Deno.test("hostile keys are refused by the adapter itself, and nothing is written", () =>
  withBucket(async (bucket, root) => {
    const hostile = [
      "../../etc/passwd",
      "a/../../b",
      "../x",
      "%2e%2e/x",
      "a\u0000b",
      "/abs",
      "k".repeat(2048),
    ];
    for (const key of hostile) {
      await assert.rejects(
        bucket.put(key, streamOf("pwned"), { contentType: "text/plain" }),
        InvalidKeyError,
      );
      await assert.rejects(bucket.get(key), InvalidKeyError);
      await assert.rejects(bucket.head(key), InvalidKeyError);
      await assert.rejects(bucket.delete(key), InvalidKeyError);
    }
    assert.deepEqual(await listFiles(root), []);
  }));

Deno.test("a sidecar naming a file outside its object is refused", () =>
  withBucket(async (bucket, root) => {
    await Deno.writeTextFile(join(root, "secret"), "top secret");
    await bucket.put("k", streamOf("v"), { contentType: "text/plain" });
    const objects = join(bucket.root, "objects");
    const sidecarName = (await listFiles(objects)).find((f) => f.endsWith(".json"))!;
    const sidecar = JSON.parse(await Deno.readTextFile(join(objects, sidecarName)));
    sidecar.data = "../../../secret";
    await Deno.writeTextFile(join(objects, sidecarName), JSON.stringify(sidecar));
    await assert.rejects(bucket.get("k"), /corrupt sidecar/);
  }));

Deno.test("a body that errors leaves nothing and keeps the previous object", () =>
  withBucket(async (bucket) => {
    await bucket.put("k", streamOf("old"), { contentType: "text/plain" });
    const before = await listFiles(bucket.root);
    const failing = new ReadableStream<Uint8Array>({
      start(c) {
        c.enqueue(text("partial new bytes"));
      },
      pull(c) {
        c.error(new Error("cut off"));
      },
    });
    await assert.rejects(bucket.put("k", failing, { contentType: "text/plain" }), /cut off/);
    await assert.rejects(
      bucket.put(
        "fresh",
        streamOf("a").pipeThrough(
          new TransformStream({
            transform(_chunk, c) {
              c.error(new Error("cut off too"));
            },
          }),
        ),
        { contentType: "text/plain" },
      ),
      /cut off too/,
    );
    assert.deepEqual(await listFiles(bucket.root), before);
    assert.equal(await read((await bucket.get("k"))!.body), "old");
    assert.equal(await bucket.head("fresh"), null);
  }));

Deno.test("a reader keeps the bytes it opened while the key is replaced", () =>
  withBucket(async (bucket) => {
    const big = "x".repeat(300_000);
    await bucket.put("k", streamOf(big), { contentType: "text/plain" });
    const reading = await bucket.get("k");
    await bucket.put("k", streamOf("new"), { contentType: "text/plain" });
    assert.equal(await read(reading!.body), big, "the old bytes, whole");
    assert.equal(await read((await bucket.get("k"))!.body), "new");
    // The replaced data file is gone: one data file and one sidecar remain.
    assert.equal((await listFiles(join(bucket.root, "objects"))).length, 2);
  }));

Deno.test("get with a stale If-Match throws ObjectChangedError", () =>
  withBucket(async (bucket) => {
    const first = await bucket.put("k", streamOf("one"), { contentType: "text/plain" });
    await bucket.put("k", streamOf("two"), { contentType: "text/plain" });
    await assert.rejects(bucket.get("k", { ifMatch: first.etag }), ObjectChangedError);
    const current = await bucket.head("k");
    const ok = await bucket.get("k", { ifMatch: current!.etag });
    assert.equal(await read(ok!.body), "two");
  }));

Deno.test("cancelling a read closes the file", () =>
  withBucket(async (bucket) => {
    await bucket.put("k", streamOf("y".repeat(200_000)), { contentType: "text/plain" });
    const reading = await bucket.get("k");
    const reader = reading!.body.getReader();
    await reader.read();
    await reader.cancel();
    // The test sanitizer fails the test if the file were still open.
  }));

Deno.test("list pages in UTF-8 byte order with prefix and after", () =>
  withBucket(async (bucket) => {
    assert.deepEqual(await bucket.list({ limit: 10 }), { objects: [], next: null });
    const keys = ["b", "a/z", "a/é", "a/\uffff", "a/😀", "a-", "c/d"];
    for (const key of keys) await bucket.put(key, streamOf(key), { contentType: "text/plain" });
    // UTF-16 order would put U+FFFF after the emoji's surrogates; UTF-8 byte order does not.
    const order = ["a-", "a/z", "a/é", "a/\uffff", "a/😀", "b", "c/d"];
    const first = await bucket.list({ limit: 3 });
    assert.deepEqual(first.objects.map((o) => o.key), order.slice(0, 3));
    assert.equal(first.next, "a/é");
    const second = await bucket.list({ limit: 3, after: first.next! });
    assert.deepEqual(second.objects.map((o) => o.key), order.slice(3, 6));
    const last = await bucket.list({ limit: 3, after: second.next! });
    assert.deepEqual(last, { objects: [last.objects[0]], next: null });
    assert.equal(last.objects[0].key, "c/d");
    const prefixed = await bucket.list({ limit: 10, prefix: "a/" });
    assert.deepEqual(prefixed.objects.map((o) => o.key), order.slice(1, 5));
  }));

Deno.test("a folder that cannot be created is an error of the store", async () => {
  const root = await Deno.makeTempDir({ prefix: "bucket-fs-" });
  try {
    await Deno.writeTextFile(join(root, "buckets"), "a file where the folder should be");
    const bucket = new FsBucket(join(root, "buckets", "private"));
    await assert.rejects(bucket.put("k", streamOf("v"), { contentType: "text/plain" }));
    assert.equal(await bucket.head("k").catch(() => "failed"), "failed");
  } finally {
    await Deno.remove(root, { recursive: true });
  }
});

/** `text` in chunks of `size` bytes, each after a macrotask, so concurrent uploads interleave. */
const slowStream = (body: string, size = 4096) => {
  let offset = 0;
  return new ReadableStream<Uint8Array>({
    async pull(c) {
      await new Promise((r) => setTimeout(r, 0));
      if (offset >= body.length) return c.close();
      c.enqueue(text(body.slice(offset, offset + size)));
      offset += size;
    },
  });
};

Deno.test("20 concurrent uploads of one key leave exactly one object on disk", () =>
  withBucket(async (bucket) => {
    const bodies = Array.from({ length: 20 }, (_, i) => `${i}:`.padEnd(50_000 + i * 997, "x"));
    for (let round = 0; round < 2; round++) {
      const infos = await Promise.all(
        bodies.map((body) => bucket.put("same", slowStream(body), { contentType: "text/plain" })),
      );
      assert.deepEqual(await listFiles(join(bucket.root, "tmp")), []);
      const objects = await listFiles(join(bucket.root, "objects"));
      assert.equal(objects.length, 2, `one data file and one sidecar: ${objects.join()}`);
      const stored = await bucket.head("same");
      const winner = infos.findIndex((info) => info.etag === stored!.etag);
      assert.ok(winner >= 0, "the stored object is one of the uploads");
      assert.equal(await read((await bucket.get("same"))!.body), bodies[winner], "whole");
    }
    // Uploads racing deletes: whatever wins, the disk holds the object or nothing.
    await Promise.all(
      bodies.map((body, i) =>
        i % 2
          ? bucket.delete("same")
          : bucket.put("same", slowStream(body), { contentType: "text/plain" })
      ),
    );
    const left = await listFiles(join(bucket.root, "objects"));
    assert.equal(left.length, (await bucket.head("same")) ? 2 : 0, left.join());
  }));

Deno.test("the first upload sweeps what a crashed process left, and nothing live", () =>
  withBucket(async (first) => {
    await first.put("kept", streamOf("kept bytes"), { contentType: "text/plain" });
    const id = (await listFiles(join(first.root, "objects")))[0].slice(0, 64);
    const old = new Date(Date.now() - 2 * SWEEP_GRACE_MS);
    const plant = async (path: string, mtime: Date) => {
      await Deno.writeTextFile(join(first.root, path), "left over");
      await Deno.utime(join(first.root, path), mtime, mtime);
    };
    const uuid = () => crypto.randomUUID();
    const stale = [`tmp/${uuid()}`, `tmp/${uuid()}.json`, `objects/${id}.${uuid()}`];
    const orphanId = "f".repeat(64);
    stale.push(`objects/${orphanId}.${uuid()}`); // a data file without any sidecar
    for (const path of stale) await plant(path, old);
    // Written just now: perhaps another process's upload in flight; kept.
    const fresh = [`tmp/${uuid()}`, `objects/${id}.${uuid()}`];
    for (const path of fresh) await plant(path, new Date());

    // A new process on the same folder: its first upload sweeps first.
    const second = new FsBucket(first.root);
    await second.put("new", streamOf("new"), { contentType: "text/plain" });
    const files = await listFiles(second.root);
    for (const path of stale) assert.ok(!files.includes(path), `${path} swept`);
    for (const path of fresh) assert.ok(files.includes(path), `${path} kept`);
    assert.equal(files.length, 4 + fresh.length, files.join()); // two objects, two files each
    assert.equal(await read((await second.get("kept"))!.body), "kept bytes");
    assert.equal(await second.sweep(), 0, "nothing stale is left");
  }));
