/** The digest text: the tree layout and the largest-first drop. */
import assert from "node:assert/strict";
import { repoText, tree } from "../../functions/repo-explainer/repo_text.ts";
import { tokenCounter } from "../../functions/repo-explainer/tokens.ts";

Deno.test("repo text: the tree prints each folder once, indented", () => {
  assert.equal(
    tree(["src/b/c.ts", "README.md", "src/a.ts", "src/b/d.ts"]),
    "Directory structure:\nREADME.md\nsrc/\n  a.ts\n  b/\n    c.ts\n    d.ts\n\n",
  );
});

Deno.test("repo text: a budget smaller than everything keeps nothing and lists all", async () => {
  const counter = await tokenCounter(60_000);
  const archive = {
    commit: null,
    truncated: null,
    omitted: [],
    files: [{ path: "a.txt", text: "alpha\n", bytes: 6 }, {
      path: "b.txt",
      text: "beta\n",
      bytes: 5,
    }],
  };
  const out = await repoText({ repo: "o/r", ref: "main", commit: null }, archive, counter, 1);
  assert.deepEqual(out.tokens.files, []);
  assert.deepEqual(out.omitted.map((o) => o.reason), ["max-tokens", "max-tokens"]);
});
