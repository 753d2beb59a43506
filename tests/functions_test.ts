/**
 * Every experiment as `deno task dev` runs it: its main.ts started as a process with the
 * embedded defaults serves its root document and the contract's 404, and a malformed
 * environment value stops start-up with one line naming the variable.
 */
import assert from "node:assert/strict";

const SLUGS = [
  "dependency-analyzer",
  "metadata-extractor",
  "devtools-inspector",
  "ai-summary",
  "repo-explainer",
  "screenshot",
  "link-shortener",
  "object-storage",
];

const ROOT_DIR = new URL("../", import.meta.url);

/** Starts an experiment on a free port; resolves with its origin once it listens. */
async function start(slug: string, dataDir: string) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `functions/${slug}/main.ts`],
    cwd: ROOT_DIR,
    env: { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  child.stdout.pipeTo(new WritableStream()).catch(() => {});
  // Deno.serve prints "Listening on …" to stderr.
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 30_000));
  try {
    while (true) {
      const next = await Promise.race([reader.read(), timeout]);
      if (next === null || next.done) break;
      out += next.value;
      const port = out.match(/Listening on https?:\/\/[^:]+:(\d+)/)?.[1];
      if (port) {
        // Keep draining stderr so the child never blocks on a full pipe.
        (async () => {
          while (!(await reader.read()).done) { /* drain */ }
        })().catch(() => {});
        return { child, origin: `http://127.0.0.1:${port}` };
      }
    }
  } finally {
    clearTimeout(timer);
  }
  child.kill();
  await child.status;
  throw new Error(`${slug} did not start: ${out}`);
}

Deno.test("each experiment starts with embedded defaults and serves its root document", async () => {
  const dataDir = await Deno.makeTempDir();
  const running = await Promise.all(SLUGS.map((slug) => start(slug, dataDir)));
  try {
    for (const [i, { origin }] of running.entries()) {
      const slug = SLUGS[i];
      const { ROOT } = await import(`../functions/${slug}/app.ts`);
      const res = await fetch(`${origin}/`);
      assert.equal(res.status, 200, slug);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
      const doc = await res.json();
      assert.deepEqual(doc, ROOT, slug);
      assert.equal(doc.name, slug);
      assert.ok(doc.description.length > 10, slug);
      assert.match(doc.usage, /^(GET|POST|PUT|DELETE) \/\S*/, slug);
      const missing = await fetch(`${origin}/definitely/not/a/route`);
      assert.equal(missing.status, 404, slug);
      assert.equal((await missing.json()).code, "NOT_FOUND", slug);
    }
  } finally {
    for (const { child } of running) {
      child.kill("SIGTERM");
      await child.status;
    }
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a malformed environment value stops start-up with one line naming it", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "functions/dependency-analyzer/main.ts"],
    cwd: ROOT_DIR,
    env: { PORT: "0", FETCH_TIMEOUT_MS: "soon", NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.equal(out.code, 1);
  const stderr = new TextDecoder().decode(out.stderr).trim();
  assert.equal(stderr.split("\n").length, 1, stderr);
  assert.match(stderr, /^config error: FETCH_TIMEOUT_MS /);
});
