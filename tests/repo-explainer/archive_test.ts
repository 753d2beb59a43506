/** The tarball reader: paths filtered before bytes are read, every bound stops with a reason. */
import assert from "node:assert/strict";
import { packTar } from "modern-tar";
import { ARCHIVE_LIMITS, readArchive } from "../../functions/repo-explainer/archive.ts";
import { pathFilter } from "../../functions/repo-explainer/file_rules.ts";

async function gzipped(files: Record<string, string>): Promise<ReadableStream<Uint8Array>> {
  const tar = await packTar(
    Object.entries(files).map(([path, body]) => ({
      header: { name: `top-abc1234/${path}`, size: new TextEncoder().encode(body).length },
      body,
    })),
  );
  return new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"));
}

Deno.test("archive: the top folder is stripped and files kept in order", async () => {
  const out = await readArchive(
    await gzipped({ "a.txt": "A", "d/b.txt": "B" }),
    pathFilter([], []),
  );
  assert.deepEqual(out.files.map((f) => [f.path, f.text]), [["a.txt", "A"], ["d/b.txt", "B"]]);
  assert.equal(out.truncated, null);
});

Deno.test("archive: too-large files and files past the count or text bounds are left out", async () => {
  const files = { "a.txt": "aaaa", "big.txt": "x".repeat(100), "b.txt": "bbbb", "c.txt": "cccc" };
  const limits = { ...ARCHIVE_LIMITS, maxFileBytes: 50, maxFiles: 2 };
  const out = await readArchive(await gzipped(files), pathFilter([], []), limits);
  assert.deepEqual(out.files.map((f) => f.path), ["a.txt", "b.txt"]);
  assert.deepEqual(out.omitted.map((o) => [o.path, o.reason]), [
    ["big.txt", "too-large"],
    ["c.txt", "limit"],
  ]);
  const text = await readArchive(await gzipped(files), pathFilter([], []), {
    ...ARCHIVE_LIMITS,
    maxTextBytes: 6,
  });
  assert.deepEqual(text.files.map((f) => f.path), ["a.txt"]);
});

Deno.test("archive: an archive past its byte bound stops, says so, keeps what came before", async () => {
  const files: Record<string, string> = {};
  for (let i = 0; i < 50; i++) {
    files[`f${String(i).padStart(2, "0")}.txt`] = `file ${i}\n`.repeat(50);
  }
  const out = await readArchive(await gzipped(files), pathFilter([], []), {
    ...ARCHIVE_LIMITS,
    maxArchiveBytes: 10 * 1024,
  });
  assert.ok(out.truncated?.includes("10240 bytes"));
  assert.ok(out.files.length > 0 && out.files.length < 50, String(out.files.length));
});

Deno.test("archive: bytes that are not gzip are a 502 FETCH_OR_AI_ERROR", async () => {
  const junk = new Blob([new Uint8Array(1000).fill(7)]).stream();
  await assert.rejects(readArchive(junk, pathFilter([], [])), (err: Error & { code?: string }) => {
    assert.equal(err.code, "FETCH_OR_AI_ERROR");
    return true;
  });
});
