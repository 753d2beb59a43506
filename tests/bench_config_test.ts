/**
 * bench/ is its own Deno project (bench/deno.json, its own lock file and node_modules), so that
 * running and testing the services never installs a benchmark-only package. These tests keep
 * the two import maps honest: the root map holds only what functions/, shared/, scripts/ and
 * tests/ import, and bench/deno.json repeats the root map unchanged (benchmarks import the
 * services' modules) and adds the benchmark-only packages.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../", import.meta.url);
/** Root entries imported by no source on purpose: they pin a peer dependency's version. */
const PINNED_PEERS = new Set(["zod"]); // @hono/zod-openapi's peer

/** The `imports` of a deno.json. */
async function importsOf(path: string): Promise<Record<string, string>> {
  const config = JSON.parse(await Deno.readTextFile(new URL(path, ROOT)));
  return config.imports ?? {};
}

/** Every TypeScript source under the given folders (fixtures excluded), joined. */
async function sources(folders: string[]): Promise<string> {
  const texts: string[] = [];
  const visit = async (dir: URL) => {
    for await (const entry of Deno.readDir(dir)) {
      if (entry.isDirectory && entry.name !== "fixtures") {
        await visit(new URL(`${entry.name}/`, dir));
      } else if (entry.isFile && entry.name.endsWith(".ts")) {
        texts.push(await Deno.readTextFile(new URL(entry.name, dir)));
      }
    }
  };
  for (const folder of folders) await visit(new URL(`${folder}/`, ROOT));
  return texts.join("\n");
}

/**
 * Whether `code` imports or resolves the import-map key `key` (`"hono"`, `"hono/…"`, or a
 * template such as `` import(`metascraper-${name}`) ``, which may load any key it starts).
 */
function uses(code: string, key: string, templates = true): boolean {
  const name = key.endsWith("/") ? key : `${key}"`;
  if (code.includes(`"${name}`) || code.includes(`"${key}/`)) return true;
  if (!templates) return false;
  const prefixes = [...code.matchAll(/import\(`([^`$]+)\$\{/g)].map((m) => m[1]);
  return prefixes.some((prefix) => key.startsWith(prefix));
}

Deno.test("bench/deno.json repeats the root import map unchanged", async () => {
  const root = await importsOf("deno.json");
  const bench = await importsOf("bench/deno.json");
  for (const [key, target] of Object.entries(root)) {
    assert.equal(bench[key], target, `bench/deno.json "${key}" must equal deno.json's`);
  }
});

Deno.test("the root import map holds no benchmark-only package", async () => {
  const root = await importsOf("deno.json");
  const code = await sources(["functions", "shared", "scripts", "tests"]);
  const unused = Object.keys(root).filter((key) => !uses(code, key) && !PINNED_PEERS.has(key));
  assert.deepEqual(
    unused,
    [],
    "imported by nothing outside bench/: move it to bench/deno.json's imports",
  );
});

Deno.test("services and tests import no benchmark-only package", async () => {
  const root = await importsOf("deno.json");
  const bench = await importsOf("bench/deno.json");
  const benchOnly = Object.keys(bench).filter((key) => !(key in root));
  assert.ok(benchOnly.length > 0, "bench/deno.json adds the benchmark-only packages");
  const code = await sources(["functions", "shared", "scripts", "tests"]);
  // Literal imports only: a template import names its keys in the root map (previous test).
  assert.deepEqual(benchOnly.filter((key) => uses(code, key, false)), []);
});
