/**
 * The house rules of ARCHITECTURE.md, checked on every import of the source tree: an experiment
 * never imports another experiment; shared/ never imports an experiment; the contract imports
 * neither the network layer nor the bindings; the network layer does not import the bindings.
 */
import assert from "node:assert/strict";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("../", import.meta.url));

/** Every .ts file under `dir`, as a path relative to the repository root. */
async function sources(dir: string): Promise<string[]> {
  const out: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, dir))) {
    const path = join(dir, entry.name);
    if (entry.isDirectory) out.push(...await sources(path));
    else if (entry.name.endsWith(".ts")) out.push(path);
  }
  return out;
}

const SPECIFIER = /(?:\bfrom\s*|\bimport\s*\(?\s*)["'](\.{1,2}\/[^"']+)["']/g;

/** The repository paths a file imports (relative specifiers only: packages are not layers). */
async function importsOf(file: string): Promise<string[]> {
  const text = await Deno.readTextFile(join(ROOT, file));
  return [...text.matchAll(SPECIFIER)].map((m) =>
    relative(ROOT, resolve(ROOT, dirname(file), m[1]))
  );
}

/** The layer a path belongs to: `functions/<slug>`, `shared/<kind>`, or another top folder. */
function layer(path: string): string {
  const [top, second] = path.split("/");
  return top === "functions" || top === "shared" ? `${top}/${second}` : top;
}

/** Why an import from `from` to `to` breaks a rule, or null when it is allowed. */
export function violation(from: string, to: string): string | null {
  const a = layer(from);
  const b = layer(to);
  if (a === b) return null;
  if (a.startsWith("functions/") && b.startsWith("functions/")) return "experiment → experiment";
  if (a.startsWith("shared/") && !b.startsWith("shared/")) return "shared → outside shared";
  if (a.startsWith("functions/") && !b.startsWith("shared/")) return "experiment → outside shared";
  if (a === "shared/contract" && b !== "shared/contract") return "contract → " + b;
  if (a === "shared/net" && b === "shared/bindings") return "net → bindings";
  return null;
}

Deno.test("the layer rules catch what they forbid", () => {
  assert.equal(violation("functions/a/app.ts", "functions/b/x.ts"), "experiment → experiment");
  assert.equal(
    violation("shared/contract/light_app.ts", "shared/bindings/db.ts"),
    "contract → shared/bindings",
  );
  assert.equal(
    violation("shared/contract/light_app.ts", "shared/net/html.ts"),
    "contract → shared/net",
  );
  assert.equal(violation("shared/net/html.ts", "shared/bindings/db.ts"), "net → bindings");
  assert.equal(violation("shared/net/html.ts", "functions/a/x.ts"), "shared → outside shared");
  assert.equal(
    violation("functions/a/app.ts", "tests/support/x.ts"),
    "experiment → outside shared",
  );
  assert.equal(violation("functions/a/app.ts", "shared/bindings/db.ts"), null);
  assert.equal(violation("shared/bindings/db.ts", "shared/contract/errors.ts"), null);
});

Deno.test("no source file breaks the layer rules", async () => {
  const broken: string[] = [];
  for (const file of [...await sources("functions"), ...await sources("shared")]) {
    for (const target of await importsOf(file)) {
      const why = violation(file, target);
      if (why) broken.push(`${file} imports ${target} (${why})`);
    }
  }
  assert.deepEqual(broken, []);
});

Deno.test("a binding with several files has one public face, mod.ts, and experiments use only it", async () => {
  const folders: string[] = [];
  for await (const entry of Deno.readDir(join(ROOT, "shared/bindings"))) {
    if (entry.isDirectory) folders.push(`shared/bindings/${entry.name}`);
  }
  assert.ok(folders.length > 0);
  const broken: string[] = [];
  for (const folder of folders) {
    const files = await sources(folder);
    assert.ok(files.includes(`${folder}/mod.ts`), `${folder} has a mod.ts`);
  }
  for (const file of await sources("functions")) {
    for (const target of await importsOf(file)) {
      const folder = folders.find((f) => target.startsWith(f + "/"));
      if (folder && target !== `${folder}/mod.ts`) broken.push(`${file} imports ${target}`);
    }
  }
  assert.deepEqual(broken, []);
});
