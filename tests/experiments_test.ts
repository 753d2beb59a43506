/**
 * One list of experiments (scripts/experiments.ts); everything else that names them agrees
 * with it: the function folders, the `dev:<slug>` tasks of deno.json, the README's table, the
 * test folders.
 */
import assert from "node:assert/strict";
import { EXPERIMENTS, SLUGS } from "../scripts/experiments.ts";

const ROOT = new URL("../", import.meta.url);

async function folders(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const e of Deno.readDir(new URL(dir, ROOT))) if (e.isDirectory) out.push(e.name);
  return out.sort();
}

Deno.test("functions/ holds exactly the listed experiments", async () => {
  assert.deepEqual(await folders("functions/"), [...SLUGS].sort());
});

Deno.test("tests/ has a folder per experiment, named like its function folder", async () => {
  const tests = await folders("tests/");
  for (const slug of SLUGS) assert.ok(tests.includes(slug), `tests/${slug}/`);
  const snake = tests.filter((name) => name.includes("_"));
  assert.deepEqual(snake, [], "test folders use the function folders' names");
});

Deno.test("deno.json has a dev:<slug> task for each experiment and no other", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const devTasks = Object.keys(config.tasks).filter((t) => t.startsWith("dev:"));
  assert.deepEqual(devTasks.map((t) => t.slice(4)).sort(), [...SLUGS].sort());
  for (const slug of SLUGS) {
    assert.equal(config.tasks[`dev:${slug}`], `deno run -A scripts/dev.ts ${slug}`, slug);
  }
});

Deno.test("README's experiment table lists each experiment with its port", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  const rows = readme.split("\n").filter((l) => /^\| [a-z-]+ +\| \d{4} /.test(l));
  const listed = rows.map((l) => l.split("|").slice(1, 3).map((c) => c.trim()));
  assert.deepEqual(listed, EXPERIMENTS.map((e) => [e.slug, String(e.port)]));
});
