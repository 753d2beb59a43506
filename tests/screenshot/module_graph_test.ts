/**
 * What the screenshot experiment loads when, from its module graph (`deno info --json`, the
 * graph `deno run` loads): `GET /` is answered by main.ts's front, which does not import the
 * app; the app (built by the first other request: /openapi.json, /docs, a refused URL) imports
 * neither the capture code nor puppeteer-core nor node:http/node:net; the capture code is a
 * dynamic import, loaded by the first `/screenshot` that gets past validation. With deno.json's
 * `lazy-dynamic-imports`, `deno run` loads a dynamic import only when it runs.
 */
import assert from "node:assert/strict";

const ROOT = new URL("../../", import.meta.url);
const DIR = new URL("functions/screenshot/", ROOT);

interface Dependency {
  code?: { specifier: string };
  isDynamic?: boolean;
}
interface Graph {
  modules: { specifier: string; dependencies?: Dependency[] }[];
}

/** The module graph of `entry`, as `deno info --json` gives it. */
async function graphOf(entry: URL): Promise<Graph> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["info", "--json", entry.pathname],
    cwd: ROOT.pathname,
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  return JSON.parse(new TextDecoder().decode(out.stdout));
}

/** The modules `root` loads before its first line runs: static code imports, transitively. */
function staticClosure(graph: Graph, root: string): Set<string> {
  const modules = new Map(graph.modules.map((m) => [m.specifier, m]));
  const seen = new Set<string>();
  const stack = [root];
  while (stack.length > 0) {
    const specifier = stack.pop()!;
    if (seen.has(specifier)) continue;
    seen.add(specifier);
    for (const dep of modules.get(specifier)?.dependencies ?? []) {
      if (dep.code && !dep.isDynamic) stack.push(dep.code.specifier);
    }
  }
  return seen;
}

/** The capture side: what only a capture needs. */
const CAPTURE_ONLY = [
  new URL("capture.ts", DIR).href,
  new URL("network_idle.ts", DIR).href,
  new URL("shared/bindings/browser/policy_proxy.ts", ROOT).href,
  new URL("shared/bindings/browser/cdp_guard.ts", ROOT).href,
];

/** Names in `loaded` that only a capture needs: capture modules, puppeteer-core, node:http/net. */
function captureModules(loaded: Set<string>): string[] {
  return [...loaded].filter((s) =>
    CAPTURE_ONLY.includes(s) || /^npm:\/?puppeteer-core@/.test(s) || /^node:(http|net)$/.test(s)
  );
}

const main = new URL("main.ts", DIR).href;
const app = new URL("app.ts", DIR).href;
const graph = await graphOf(new URL(main));

Deno.test("GET / loads the front only: main.ts imports neither the app nor the capture", () => {
  const loaded = staticClosure(graph, main);
  assert.ok(loaded.has(new URL("root.ts", DIR).href), "the root document is loaded");
  assert.ok(!loaded.has(app), "app.ts is not loaded at start-up");
  assert.deepEqual(captureModules(loaded), []);
});

Deno.test("the app loads no capture code: capture.ts is imported on the first /screenshot", () => {
  assert.ok(graph.modules.some((m) => m.specifier === app), "app.ts is in the graph");
  const loaded = staticClosure(graph, app);
  assert.deepEqual(captureModules(loaded), [], "loaded with the app");
  const appModule = graph.modules.find((m) => m.specifier === app)!;
  const capture = appModule.dependencies?.find((d) => d.code?.specifier === CAPTURE_ONLY[0]);
  assert.equal(capture?.isDynamic, true, "app.ts imports capture.ts dynamically");
  // And the check can tell: loading capture.ts loads capture-only modules.
  assert.ok(captureModules(staticClosure(graph, CAPTURE_ONLY[0])).length > 0);
});

Deno.test("deno run loads a dynamic import only when it runs (lazy-dynamic-imports)", async () => {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  assert.ok(config.unstable?.includes("lazy-dynamic-imports"));
});

Deno.test("no import cycle among the experiment's own modules", async () => {
  // Every edge counts here, type-only and dynamic ones too: a cycle is a design knot even
  // when the runtime would not trip on it.
  const full = new Map<string, string[]>();
  for (const m of (await graphOf(new URL(main))).modules) {
    const deps = (m.dependencies ?? []) as (Dependency & { type?: { specifier: string } })[];
    full.set(
      m.specifier,
      deps.flatMap((d) => [d.code?.specifier, d.type?.specifier])
        .filter((s): s is string => s?.startsWith(DIR.href) ?? false),
    );
  }
  const cycles: string[] = [];
  const state = new Map<string, "open" | "done">();
  const visit = (node: string, path: string[]) => {
    if (state.get(node) === "done") return;
    if (state.get(node) === "open") {
      cycles.push(
        [...path.slice(path.indexOf(node)), node].map((s) => s.slice(ROOT.href.length)).join(
          " -> ",
        ),
      );
      return;
    }
    state.set(node, "open");
    for (const next of full.get(node) ?? []) visit(next, [...path, node]);
    state.set(node, "done");
  };
  visit(main, []);
  assert.deepEqual(cycles, []);
});
