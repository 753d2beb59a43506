/** scripts/build.ts: what it does to `deno bundle`'s output (the bundles run in tests/edge/). */
import assert from "node:assert/strict";
import {
  addRequire,
  bundleArgs,
  deferDynamicImports,
  NATIVE_EXTERNALS,
  npmSpecifiers,
  rewriteChunkImports,
  rewriteExternals,
} from "../../scripts/build.ts";
import { decodeData9, entityTableInliner } from "../../scripts/entity_table.ts";

const IMPORTS = {
  "@libsql/client": "npm:@libsql/client@0.18.0",
  "libsql": "npm:libsql@0.5.29",
  "hono": "npm:hono@4.13.19",
};

Deno.test("build: native externals become pinned npm: specifiers, subpaths included", () => {
  const code = `import{a}from"libsql";const b=await import("@libsql/client/sqlite3");` +
    `import("hono");import "libsqlx";`;
  assert.equal(
    rewriteExternals(code, IMPORTS),
    `import{a}from"npm:libsql@0.5.29";` +
      `const b=await import("npm:@libsql/client@0.18.0/sqlite3");import("hono");import "libsqlx";`,
  );
  assert.throws(() => rewriteExternals(`import("libsql")`, { hono: "npm:hono" }), /no npm: entry/);
  // The edge's client is bundled, never rewritten (were it external it would need npm at start).
  const web = `import{createClient}from"@libsql/client/web";`;
  assert.equal(rewriteExternals(web, IMPORTS), web);
});

Deno.test("build: the entry's chunk imports point into its chunk folder", () => {
  const code = `import{a}from"./chunk-AB12.js";const m=()=>import("./capture-XY.js");` +
    `import "node:fs";import{b}from"npm:x";`;
  assert.equal(
    rewriteChunkImports(code, "screenshot"),
    `import{a}from"./screenshot/chunk-AB12.js";const m=()=>import("./screenshot/capture-XY.js");` +
      `import "node:fs";import{b}from"npm:x";`,
  );
});

Deno.test("build: every literal dynamic import gets a computed specifier, static ones stay", () => {
  const code = `import{a}from"./chunk-AB12.js";const m=()=>import("./screenshot/capture-XY.js");` +
    `import("npm:@libsql/client@0.18.0/sqlite3");import ( 'node:fs' );import "./side.js";`;
  assert.equal(
    deferDynamicImports(code),
    `import{a}from"./chunk-AB12.js";const m=()=>import(String("./screenshot/capture-XY.js"));` +
      `import(String("npm:@libsql/client@0.18.0/sqlite3"));import(String('node:fs'));` +
      `import "./side.js";`,
  );
  assert.equal(deferDynamicImports(deferDynamicImports(code)), deferDynamicImports(code));
});

Deno.test("build: a chunk with esbuild's require shim gets a real require, once, made on first call", async () => {
  const shim = `export const r=(id)=>{if(typeof require<"u")return require(id);` +
    `throw Error('Dynamic require of "'+id+'" is not supported')};`;
  const fixed = addRequire(shim);
  assert.doesNotMatch(fixed, /from\s*"node:module"/, "no import of node:module up front");
  assert.equal(addRequire(fixed), fixed);
  assert.equal(addRequire("export const a = 1;"), "export const a = 1;");
  const file = await Deno.makeTempFile({ suffix: ".js" });
  try {
    await Deno.writeTextFile(file, fixed);
    const { r } = await import(`file://${file}`);
    assert.equal(typeof r("node:crypto").createHash, "function");
    assert.equal(r("node:path"), r("node:path"));
  } finally {
    await Deno.remove(file);
  }
});

Deno.test("build: deno bundle splits code and keeps every native external out", () => {
  const args = bundleArgs("link-shortener", "/tmp/out");
  assert.ok(args.includes("--code-splitting"));
  assert.ok(args.includes("--platform=deno"));
  for (const e of NATIVE_EXTERNALS) assert.ok(args.includes(`--external=${e}`));
  assert.equal(args.at(-1), "functions/link-shortener/main.ts");
});

Deno.test("build: npm: specifiers come from deno.json, and from deno.lock for dependencies", async () => {
  const specifiers = await npmSpecifiers();
  const config = JSON.parse(await Deno.readTextFile(new URL("../../deno.json", import.meta.url)));
  assert.equal(specifiers["hono"], config.imports.hono);
  assert.match(specifiers["libsql"], /^npm:libsql@\d+\.\d+\.\d+$/);
});

/** The exports of `code` run as a module (from a temporary file). */
async function evaluate(code: string): Promise<Record<string, unknown>> {
  const file = await Deno.makeTempFile({ suffix: ".js" });
  try {
    await Deno.writeTextFile(file, code);
    return await import(`file://${file}`);
  } finally {
    await Deno.remove(file);
  }
}

Deno.test("build: the packed entity trie becomes the decoded table, which evaluates to entities' own", async () => {
  const { htmlDecodeTree } = await import("entities/decode");
  const source = await Deno.readTextFile(
    new URL("./generated/decode-data-html.js", import.meta.resolve("entities/decode")),
  );
  const call = source.match(/decodeTrieDict\(("[^"]*")((?:, *[\d_]+){5})\)/);
  assert.ok(call, "entities' packed trie call");
  const [, packed, counts] = call;
  const inline = await entityTableInliner();
  // As the minifier writes it: a renamed function, no spaces, no digit separators.
  const bundled = `const K=(...a)=>{throw Error("unpacked at run time")};` +
    `export const tree=K(${packed}${counts.replace(/[ _]/g, "")});`;
  const out = inline(bundled);
  assert.doesNotMatch(out, /K\("/);
  const { tree } = await evaluate(out);
  assert.ok(tree instanceof Uint16Array);
  assert.deepEqual(tree, htmlDecodeTree);
  assert.equal(inline("export const a = 1;"), "export const a = 1;");
  // The packed string in any other shape stops the build instead of shipping it unpacked.
  assert.throws(() => inline(`f(${packed}, 1)`), /unknown form/);
});

Deno.test("build: parse5's entity data becomes its decoded tables, equal to entities' own", async () => {
  const tables = await decodeData9();
  assert.ok(tables.keys.length > 0 && tables.middles.length > 0);
  const inline = await entityTableInliner();
  // As the bundler writes it: renamed, with its name kept, declared then called once on the
  // packed array (whose second string is the tables' values).
  const declared = `function zs(e){throw Error("built at run time")}i(zs,"initDecodeData");`;
  const bundled =
    `const i=(f,n)=>f;${declared}var js=["packed",${JSON.stringify(tables.values)}];` +
    `export const data=zs(js);`;
  const out = inline(bundled);
  assert.doesNotMatch(out, /=zs\(js\)/);
  assert.deepEqual((await evaluate(out)).data, tables);
  // Not exactly one call stops the build.
  assert.throws(() => inline(`${declared}var a=zs(js),b=zs(xs);`), /2 calls/);
  assert.throws(() => inline(declared), /0 calls/);
});
