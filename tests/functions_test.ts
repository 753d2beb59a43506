/**
 * Every experiment as `deno task dev` runs it: its main.ts started as a process with the
 * embedded defaults serves its root document and the contract's 404, and a malformed
 * environment value stops start-up with one line naming the variable.
 */
import assert from "node:assert/strict";
import { assertConfigError, startEntrypoint } from "./support/entrypoint.ts";
import { EXPERIMENTS, SLUGS } from "../scripts/experiments.ts";

Deno.test("each experiment starts with embedded defaults and serves its root document", async () => {
  const dataDir = await Deno.makeTempDir();
  const running = await Promise.all(
    SLUGS.map((slug) => startEntrypoint(slug, { DATA_DIR: dataDir })),
  );
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
    await Promise.all(running.map((r) => r.stop("SIGTERM")));
    await Deno.remove(dataDir, { recursive: true });
  }
});

Deno.test("a malformed environment value stops start-up with one line naming it", async () => {
  await assertConfigError("dependency-analyzer", { FETCH_TIMEOUT_MS: "soon" }, "FETCH_TIMEOUT_MS ");
});

Deno.test("each config.ts's default port is the one scripts/experiments.ts and `deno task dev` give it", async () => {
  for (const { slug, port } of EXPERIMENTS) {
    const { DEFAULT_PORT } = await import(`../functions/${slug}/config.ts`);
    assert.equal(DEFAULT_PORT, port, slug);
  }
});
