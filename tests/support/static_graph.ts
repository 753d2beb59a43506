/** What a module loads when it is imported: its static import graph, from `deno info`. */
import assert from "node:assert/strict";

/**
 * The modules `entry` imports statically (not through `import()`), transitively: specifiers,
 * with `npm:<package>@<version>` for each npm package reached.
 */
export async function staticGraph(entry: string): Promise<string[]> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  type Dep = { code?: { specifier: string }; isDynamic?: boolean };
  type Mod = { specifier: string; dependencies?: Dep[]; npmPackage?: string };
  const info: { roots: string[]; modules: Mod[] } = JSON.parse(
    new TextDecoder().decode(out.stdout),
  );
  const bySpecifier = new Map(info.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [...info.roots];
  while (stack.length > 0) {
    const spec = stack.pop()!;
    if (seen.has(spec)) continue;
    seen.add(spec);
    const mod = bySpecifier.get(spec);
    if (mod?.npmPackage) seen.add(`npm:${mod.npmPackage}`);
    for (const dep of mod?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) stack.push(dep.code.specifier);
    }
  }
  return [...seen];
}
