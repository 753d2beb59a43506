/**
 * What importing the app loads: the parsers and the archive reader stay behind the routes'
 * `import()` (digest.ts, repo_digest.ts), so a request that needs neither (the API document,
 * MCP, a bad query) does not pay for them.
 */
import assert from "node:assert/strict";
import { staticGraph } from "../support/static_graph.ts";

Deno.test("repo-explainer: importing the app loads no TOML, JSONC or tar reader", async () => {
  const graph = await staticGraph("functions/repo-explainer/app.ts");
  assert.ok(graph.some((s) => s.endsWith("functions/repo-explainer/app.ts")));
  const heavy = graph.filter((s) =>
    /npm:(smol-toml|jsonc-parser|modern-tar)@|repo-explainer\/(manifests|archive)\.ts$/.test(s)
  );
  assert.deepEqual(heavy, []);
});

Deno.test("the check sees them where a module loads them", async () => {
  const graph = await staticGraph("functions/repo-explainer/digest.ts");
  const packages = graph.filter((s) => /npm:(smol-toml|jsonc-parser)@/.test(s));
  assert.equal(packages.length, 2, graph.join("\n"));
});
