/**
 * Does `/analyze`, `/inspect`, `/metadata` or `/summary` keep memory? The RSS rows of bench/page_routes.ts show how far V8
 * lets the heap grow before it collects; this module shows what stays: the JS heap after a full
 * GC, after a warm-up and again after 200 more requests on the same ~500 KiB page (built by
 * bench/page_routes.ts, served by bench/fixtures/page_server.ts), each app in-process
 * (`app.request`) over a loopback page server; `/summary`'s model is the OpenAI-compatible fake
 * of tests/support (its record of requests emptied after each one, so that it keeps nothing).
 * The measuring runs in a child `deno run --v8-flags=--expose-gc`, so that it can call `gc()`.
 *
 * Run alone: `deno run -A bench/page_heap.ts`.
 */
import { createApp as createAnalyzer } from "../functions/dependency-analyzer/app.ts";
import { createApp as createInspector } from "../functions/devtools-inspector/app.ts";
import { createApp as createMetadata } from "../functions/metadata-extractor/app.ts";
import { createApp as createSummary } from "../functions/ai-summary/app.ts";
import { createAi } from "../shared/bindings/ai/mod.ts";
import { startOpenAiFake } from "../tests/support/openai_fake.ts";
import { loadTechRules } from "../functions/dependency-analyzer/tech_rules.ts";
import {
  BENCH_CONFIG_ARGS,
  type BenchRow,
  type ChildServer,
  errorRow,
  formatNotes,
  formatTable,
  QUICK,
  spawnServer,
} from "./harness.ts";
import { buildPage } from "./page_routes.ts";

/** Enough for the JIT to settle: over the first few hundred requests the heap grows ~1 MiB and stays. */
const WARMUP = QUICK ? 100 : 500;
const REQUESTS = QUICK ? 100 : 500;
/** Retained growth allowed over the measured requests: more would be a leak. */
const TARGET_MIB = 1;
const MiB = 1024 * 1024;

/** In the child: measures each app; prints one JSON line of `{route: [before, after]}` MiB. */
async function measureInChild(pageUrl: string): Promise<void> {
  const gc = (globalThis as unknown as { gc: () => void }).gc;
  const heap = () => {
    gc();
    return Deno.memoryUsage().heapUsed / MiB;
  };
  // The rule set /analyze compiles on its first request: what it keeps, measured on its own.
  const beforeRules = heap();
  const rules = await loadTechRules();
  const rulesHeap = heap() - beforeRules;
  const rulesTables = Object.values(rules.text)
    .reduce((n, set) => n + set.index.tableBytes, 0) / MiB;
  const policy = { allowPrivate: true, timeoutMs: 10_000, maxBytes: 5 * MiB };
  const fake = startOpenAiFake();
  const AI = createAi({
    kind: "openai-compatible",
    baseUrl: fake.origin,
    model: "tiny-chat",
    timeoutMs: 10_000,
  });
  const apps = {
    "/analyze": createAnalyzer({ fetchPolicy: policy }, { log: () => {} }),
    "/inspect": createInspector({ fetchPolicy: policy }, { log: () => {} }),
    "/metadata": createMetadata({ fetchPolicy: policy }, { log: () => {} }),
    "/summary": createSummary({ fetchPolicy: policy, AI }, { log: () => {} }),
  };
  const out: Record<string, [number, number]> = {};
  for (const [route, app] of Object.entries(apps)) {
    const call = async () => {
      const res = await app.request(`${route}?url=${encodeURIComponent(pageUrl)}`);
      if (res.status !== 200) throw new Error(`${route}: ${res.status} ${await res.text()}`);
      await res.arrayBuffer();
      fake.requests.length = 0;
    };
    for (let i = 0; i < WARMUP; i++) await call();
    const before = heap();
    for (let i = 0; i < REQUESTS; i++) await call();
    out[route] = [before, heap()];
  }
  await fake.close();
  console.log(JSON.stringify({ routes: out, rulesHeap, rulesTables }));
}

/** Starts the page server and the measuring child; one row per route. */
export async function run(): Promise<BenchRow[]> {
  const temp = await Deno.makeTempDir({ prefix: "bench_page_heap_" });
  await Deno.writeTextFile(`${temp}/page.html`, buildPage(500 * 1024));
  let page: ChildServer | undefined;
  try {
    page = await spawnServer(["run", "-A", "bench/fixtures/page_server.ts"], {
      PAGE_FILE: `${temp}/page.html`,
    });
    const out = await new Deno.Command(Deno.execPath(), {
      args: [
        "run",
        "-A",
        ...BENCH_CONFIG_ARGS,
        "--v8-flags=--expose-gc",
        "bench/page_heap.ts",
        "--child",
        page.origin,
      ],
      cwd: new URL("../", import.meta.url),
      stdout: "piped",
      stderr: "piped",
    }).output();
    const text = new TextDecoder().decode(out.stdout).trim();
    if (out.code !== 0) throw new Error(new TextDecoder().decode(out.stderr).slice(-500));
    const { routes, rulesHeap, rulesTables } = JSON.parse(text.split("\n").at(-1)!) as {
      routes: Record<string, [number, number]>;
      rulesHeap: number;
      rulesTables: number;
    };
    const rulesRow: BenchRow = {
      measure: "technology rule set (/analyze): memory kept after loading",
      unit: "MiB",
      project: rulesHeap + rulesTables,
      baseline: null,
      ratio: NaN,
      target: "info",
      pass: true,
      note:
        `JS heap after a full GC, before and after loadTechRules() (${
          rulesHeap.toFixed(1)
        } MiB: compiled patterns, technologies, literal maps), plus the literal indexes' typed ` +
        `tables outside the JS heap (${rulesTables.toFixed(1)} MiB)`,
    };
    return [
      rulesRow,
      ...Object.entries(routes).map(([route, [before, after]]) => ({
        measure: `GET ${route}, 500 KiB page: JS heap retained after GC over ${REQUESTS} requests`,
        unit: "MiB",
        project: after - before,
        baseline: null,
        ratio: (after - before) / TARGET_MIB,
        target: `< ${TARGET_MIB} MiB`,
        pass: after - before < TARGET_MIB,
        note: `in-process app.request after ${WARMUP} warm-up requests; heap after a full GC ` +
          `${before.toFixed(1)} MiB before, ${after.toFixed(1)} MiB after`,
      })),
    ];
  } catch (err) {
    return [errorRow("JS heap retained by /analyze, /inspect, /metadata and /summary", err)];
  } finally {
    await page?.stop();
    await Deno.remove(temp, { recursive: true });
  }
}

if (import.meta.main) {
  if (Deno.args[0] === "--child") await measureInChild(Deno.args[1]);
  else {
    const rows = await run();
    console.log(formatTable(rows));
    console.log(formatNotes(rows));
  }
}
