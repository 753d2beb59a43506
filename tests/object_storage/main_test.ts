/**
 * main.ts as a process: it builds the buckets from the environment (S3 here, against s3rver in
 * this test process), and a malformed value stops start-up with one line naming it.
 */
import assert from "node:assert/strict";
import { startS3rver } from "../support/s3rver.ts";

const MAIN = new URL("../../functions/object-storage/main.ts", import.meta.url);

/** Starts main.ts on a free port; resolves with its origin once it listens (within 30 s). */
async function start(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN.pathname],
    env: { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped", // Deno.serve announces "Listening on …" there
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const timer = setTimeout(() => child.kill(), 30_000);
  let out = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done) throw new Error(`main.ts exited: ${out}`);
      out += value;
      const port = out.match(/Listening on https?:\/\/[^:]+:(\d+)/)?.[1];
      if (port) {
        reader.releaseLock();
        child.stderr.pipeTo(new WritableStream()).catch(() => {});
        return { child, origin: `http://127.0.0.1:${port}` };
      }
    }
  } catch (err) {
    await child.status;
    throw err;
  } finally {
    clearTimeout(timer);
  }
}

Deno.test("main.ts stores in S3 when S3_ENDPOINT is set", async () => {
  const s3 = await startS3rver(["main-private", "main-public"]);
  const { child, origin } = await start({
    S3_ENDPOINT: s3.endpoint,
    S3_ACCESS_KEY_ID: "S3RVER",
    S3_SECRET_ACCESS_KEY: "S3RVER",
    BUCKET: "main-private",
    PUBLIC_BUCKET: "main-public",
    PUBLIC_BUCKET_URL: "https://cdn.example/assets",
  });
  try {
    const put = await fetch(`${origin}/object?key=a/b.txt&public=true`, {
      method: "PUT",
      headers: { "content-type": "text/plain" },
      body: "via main",
    });
    assert.deepEqual(await put.json(), {
      key: "a/b.txt",
      uploaded: true,
      url: "https://cdn.example/assets/a/b.txt",
    });
    const object = await s3.bucket("main-public").get("a/b.txt");
    assert.equal(object?.info.contentType, "text/plain");
    assert.equal(await new Response(object!.body).text(), "via main");
    const res = await fetch(`${origin}/public/a/b.txt`);
    assert.equal(res.status, 404, "no local /public route for an S3 public bucket");
    await res.body?.cancel();
  } finally {
    child.kill("SIGTERM");
    await child.status;
    await s3.close();
  }
});

Deno.test("a malformed bucket variable stops start-up with one line", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", MAIN.pathname],
    env: { PORT: "0", NO_COLOR: "1", MAX_OBJECT_BYTES: "100MB" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  const stderr = new TextDecoder().decode(out.stderr).trim();
  assert.equal(stderr.split("\n").length, 1, stderr);
  assert.match(stderr, /^config error: MAX_OBJECT_BYTES /);
});
