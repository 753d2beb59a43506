/** Which files a digest keeps: caller globs, then generated, vendored and binary files out. */
import assert from "node:assert/strict";
import { isBinary, pathFilter, validGlob } from "../../functions/repo-explainer/file_rules.ts";

Deno.test("file rules: generated, vendored and binary files are left out by default", () => {
  const keep = pathFilter([], []);
  assert.equal(keep("src/index.ts"), null);
  assert.equal(keep(".github/workflows/ci.yml"), null);
  assert.equal(keep("package-lock.json"), "generated");
  assert.equal(keep("web/yarn.lock"), "generated");
  assert.equal(keep("static/app.min.js"), "generated");
  assert.equal(keep("static/app.js.map"), "generated");
  assert.equal(keep("node_modules/x/index.js"), "vendored");
  assert.equal(keep("pkg/vendor/lib.go"), "vendored");
  assert.equal(keep("docs/logo.PNG"), "binary");
});

Deno.test("file rules: include and exclude together", () => {
  const keep = pathFilter(["src/**", "*.md"], ["**/*.test.ts", "CHANGELOG.md"]);
  assert.equal(keep("src/a.ts"), null);
  assert.equal(keep("docs/guide.md"), null, "a glob without / matches at any depth");
  assert.equal(keep("src/a.test.ts"), "excluded");
  assert.equal(keep("CHANGELOG.md"), "excluded");
  assert.equal(keep("test/a.ts"), "not-included");
  assert.equal(keep("src/dist/x.js"), "vendored", "include does not bring back a vendored path");
});

Deno.test("file rules: an include naming a generated file exactly brings it back", () => {
  assert.equal(pathFilter(["package-lock.json"], [])("package-lock.json"), null);
});

Deno.test("file rules: binary content is told from text", () => {
  assert.equal(isBinary(new TextEncoder().encode("plain text é\n")), false);
  assert.equal(isBinary(new Uint8Array([0x50, 0x4b, 0x00, 0x03])), true);
  assert.equal(isBinary(new Uint8Array([0xff, 0xfe, 0x41])), true);
});

Deno.test("file rules: globs are validated", () => {
  assert.equal(validGlob("src/**/*.ts"), true);
  assert.equal(validGlob(""), false);
  assert.equal(validGlob("a".repeat(201)), false);
});

Deno.test("file rules: globs whose matching could backtrack for long are refused", () => {
  assert.equal(validGlob("*a*b"), false, "two stars in one segment");
  assert.equal(validGlob("**/x/**/y/**/z"), false, "three ** segments");
  assert.equal(validGlob("+(a|b)"), true, "extglob syntax is taken literally (extglobs are off)");
  assert.equal(validGlob("src/**/*.{ts,tsx}"), true);
  assert.equal(validGlob("**/test/**/*_test.ts"), true);
  // What is allowed stays fast on the worst paths: against a refused glob, in the same run.
  const paths = ["a".repeat(255), "a/".repeat(400) + "c", "x/y/".repeat(200) + "aaaa"];
  const time = (f: (p: string) => unknown, on: string[]) => {
    const t = performance.now();
    for (let i = 0; i < 3; i++) for (const p of on) f(p);
    return performance.now() - t;
  };
  const refused = time(pathFilter(["*a*a*b"], []), [paths[0]]);
  // The best of five runs of the allowed globs: one GC pause or scheduler hiccup is not their cost.
  const allowedFilter = pathFilter(["**/x/**/a*b", "*a"], []);
  const allowed = Math.min(...Array.from({ length: 5 }, () => time(allowedFilter, paths)));
  assert.ok(
    allowed * 5 < refused,
    `allowed ${allowed.toFixed(1)} ms, refused ${refused.toFixed(1)} ms`,
  );
});
