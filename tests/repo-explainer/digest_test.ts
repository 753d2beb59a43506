/** The digest from a snapshot: languages, conventional entry points, the tree cap, the text. */
import assert from "node:assert/strict";
import {
  buildDigest,
  DIGEST_LABEL,
  digestText,
  MAX_TREE_ENTRIES,
} from "../../functions/repo-explainer/digest.ts";
import type { RepoSnapshot } from "../../functions/repo-explainer/github_api.ts";

function snapshot(over: Partial<RepoSnapshot>): RepoSnapshot {
  return {
    fullName: "acme/x",
    description: null,
    language: null,
    stars: 0,
    topics: [],
    license: null,
    defaultBranch: "main",
    files: [],
    readme: null,
    manifest: null,
    manifests: [],
    ...over,
  };
}

Deno.test("languages: primary first, then manifests, then top-level source files, once each", () => {
  const d = buildDigest(snapshot({
    language: "Python",
    files: ["manage.py", "setup.sh", "tools.rb", "README.md", "app/"],
    manifests: [{ name: "requirements.txt", content: "django>=5\n" }],
  }));
  assert.deepEqual(d.languages, ["Python", "Shell", "Ruby"]);
  assert.deepEqual(d.entryPoints, ["manage.py"], "by convention");
  assert.deepEqual(d.stack[0].dependencies, ["django"]);
});

Deno.test("a conventional entry already declared by a manifest is not listed twice", () => {
  const d = buildDigest(snapshot({
    files: ["index.js", "package.json"],
    manifests: [{ name: "package.json", content: '{"main": "index.js"}' }],
  }));
  assert.deepEqual(d.entryPoints, ["index.js (main)"]);
});

Deno.test("the tree is cut at the cap with a count; the text omits empty parts", () => {
  const files = Array.from({ length: MAX_TREE_ENTRIES + 7 }, (_, i) => `f${i}.txt`);
  const d = buildDigest(snapshot({ files, description: "Things." }));
  assert.equal(d.tree.length, MAX_TREE_ENTRIES + 1);
  assert.equal(d.tree.at(-1), "(+7 more)");
  const text = digestText("acme/x", d);
  assert.ok(text.startsWith(`Digest (no model) of acme/x\nWhat it is: Things.\nTop level: f0.txt`));
  assert.doesNotMatch(text, /Languages|Stack|How to run|From the README/);
  assert.equal(DIGEST_LABEL, "digest (no model)");
});
