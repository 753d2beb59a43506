/** Manifests: which format a JSON document is, and how each kind of dependency value reads. */
import assert from "node:assert/strict";
import {
  analyzeManifest,
  manifestFormat,
  npmSpec,
} from "../../functions/dependency-analyzer/manifest.ts";

const BASE = "https://example.com/app/package.json";

Deno.test("format by file name first, then by shape", () => {
  const cases: [unknown, string, string | null][] = [
    [{}, "https://x.test/package.json", "package.json"],
    [{}, "https://x.test/deno.jsonc", "deno.json"],
    [{ dependencies: {} }, "https://x.test/manifest", "package.json"],
    [{ imports: {}, tasks: {} }, "https://x.test/config.json", "deno.json"],
    [{ name: "@a/b", imports: { x: "jsr:@a/x@1" } }, "https://x.test/c.json", "deno.json"],
    [{ imports: { a: "/a.js" }, scopes: {} }, "https://x.test/map.json", "import-map"],
    [{ name: "a", version: "1.0.0" }, "https://x.test/meta.json", "package.json"],
    [{ hello: "world" }, "https://x.test/data.json", null],
    [[1, 2], "https://x.test/package.json", null],
    [{ imports: "nope" }, "https://x.test/x.json", null],
  ];
  for (const [json, url, format] of cases) {
    assert.equal(manifestFormat(json, url), format, `${JSON.stringify(json)} at ${url}`);
  }
});

Deno.test("npm dependency values: ranges, aliases, git, tarballs, files, workspaces", () => {
  const cases: [string, string, unknown][] = [
    ["react", "^18.2.0", { name: "react", range: "^18.2.0", source: "npm", url: null }],
    ["any", "", { name: "any", range: "*", source: "npm", url: null }],
    ["dfns", "npm:date-fns@^3.0.6", {
      name: "date-fns",
      range: "^3.0.6",
      source: "npm",
      url: null,
    }],
    ["s", "npm:@scope/pkg@1.2.3", { name: "@scope/pkg", range: "1.2.3", source: "npm", url: null }],
    ["lp", "github:left-pad/left-pad#v1.3.0", {
      name: "lp",
      range: "v1.3.0",
      source: "git",
      url: "https://github.com/left-pad/left-pad",
    }],
    ["sh", "user/repo#semver:^2.0.0", {
      name: "sh",
      range: "^2.0.0",
      source: "git",
      url: "https://github.com/user/repo",
    }],
    ["g", "git+https://git.example.com/r.git#main", {
      name: "g",
      range: "main",
      source: "git",
      url: "https://git.example.com/r.git",
    }],
    ["t", "https://example.com/t-1.0.0.tgz", {
      name: "t",
      range: null,
      source: "url",
      url: "https://example.com/t-1.0.0.tgz",
    }],
    ["f", "file:../f", { name: "f", range: null, source: "file", url: null }],
    ["l", "link:../l", { name: "l", range: null, source: "link", url: null }],
    ["w", "workspace:^1.0.0", { name: "w", range: "^1.0.0", source: "workspace", url: null }],
  ];
  for (const [key, value, expected] of cases) {
    assert.deepEqual(npmSpec(key, value, BASE), expected, value);
  }
});

Deno.test("deno.json imports: jsr, npm, CDN URLs, unknown URLs and local paths", () => {
  const result = analyzeManifest(
    {
      imports: {
        "@std/path": "jsr:@std/path@^1.0.0/posix",
        "chalk": "npm:/chalk@5/",
        "lit": "https://cdn.jsdelivr.net/npm/lit@3.1.0/+esm",
        "util": "https://example.com/util.js",
        "#lib/": "../lib/",
      },
    },
    "deno.json",
    "https://example.com/app/deno.json",
  );
  assert.deepEqual(
    result.dependencies.map((d) => [d.name, d.range, d.source, d.url]),
    [
      ["@std/path", "^1.0.0", "jsr", null],
      ["chalk", "5", "npm", null],
      ["lit", "3.1.0", "url", "https://cdn.jsdelivr.net/npm/lit@3.1.0/+esm"],
      ["util", null, "url", "https://example.com/util.js"],
      ["#lib/", null, "local", "https://example.com/lib/"],
    ],
  );
  assert.deepEqual(result.summary, {
    dependencies: 5,
    bySection: { imports: 5 },
    bySource: { jsr: 1, npm: 1, url: 2, local: 1 },
  });
});

Deno.test("malformed sections and entries are skipped with a warning, not fatal", () => {
  const warnings: string[] = [];
  const result = analyzeManifest(
    { name: "x", dependencies: ["a"], devDependencies: { ok: "1.0.0", bad: 2 } },
    "package.json",
    BASE,
    (m) => warnings.push(m),
  );
  assert.deepEqual(result.dependencies.map((d) => d.name), ["ok"]);
  assert.deepEqual(warnings, [
    '"dependencies" is not an object',
    'devDependencies entry "bad" is not a string',
  ]);
});
