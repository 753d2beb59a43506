/**
 * `deno task bench`: runs every benchmark module under bench/ (each `bench/<name>.ts` that
 * exports `run(): Promise<BenchRow[]>`), one after the other, and prints one table of all
 * their rows with the date and the machine, then the notes (what limits each figure). The
 * same goes to bench/results/latest.md (git-ignored).
 *
 * `deno task bench cold_start page_routes` runs only the modules named. `BENCH_QUICK=1` asks
 * for smaller sizes where a module supports it (and sets `BENCH_UPLOAD_MB=64`,
 * `BENCH_ROUNDS=1` for the upload benchmark unless they are set). A module that throws, or
 * exports no `run()`, becomes a FAIL row with its error, and the run goes on. The exit code
 * is 1 when any row fails.
 */
import { type BenchRow, errorRow, formatNotes, formatTable, QUICK } from "./harness.ts";

const BENCH_DIR = new URL("./", import.meta.url);
/** Files under bench/ that are not benchmark modules. */
const NOT_MODULES = new Set(["harness.ts", "run.ts"]);

/** The benchmark modules under bench/, by name (file name without `.ts`), sorted. */
export function moduleNames(): string[] {
  return [...Deno.readDirSync(BENCH_DIR)]
    .filter((e) => e.isFile && e.name.endsWith(".ts") && !NOT_MODULES.has(e.name))
    .filter((e) => !e.name.startsWith("_") && !e.name.endsWith("_test.ts"))
    .map((e) => e.name.slice(0, -3))
    .sort();
}

/** What one module gave. */
interface ModuleResult {
  name: string;
  rows: BenchRow[];
  seconds: number;
}

/** Imports and runs one module; any failure becomes a FAIL row. */
async function runModule(name: string): Promise<ModuleResult> {
  const started = performance.now();
  let rows: BenchRow[];
  try {
    const mod = await import(new URL(`${name}.ts`, BENCH_DIR).href);
    if (typeof mod.run !== "function") throw new Error(`bench/${name}.ts exports no run()`);
    rows = await mod.run();
    if (!Array.isArray(rows) || rows.length === 0) {
      throw new Error(`bench/${name}.ts run() returned no rows`);
    }
  } catch (err) {
    if (err instanceof Error && err.stack) console.error(err.stack);
    rows = [errorRow(`bench/${name}.ts`, err)];
  }
  return { name, rows, seconds: (performance.now() - started) / 1000 };
}

/** The machine, in one line: cores, memory, OS, CPU model, Deno. */
function machine(): string {
  const cores = navigator.hardwareConcurrency;
  const memory = Deno.systemMemoryInfo();
  let cpu = "";
  try {
    cpu = Deno.readTextFileSync("/proc/cpuinfo").match(/^model name\s*:\s*(.+)$/m)?.[1] ?? "";
  } catch {
    // not Linux
  }
  return [
    `${cores} CPU cores${cpu ? ` (${cpu.trim()})` : ""}`,
    `${(memory.total / 1024 ** 3).toFixed(1)} GiB memory ` +
    `(${(memory.available / 1024 ** 3).toFixed(1)} GiB available at the start)`,
    `${Deno.build.os} ${Deno.build.arch}`,
    `Deno ${Deno.version.deno} (V8 ${Deno.version.v8})`,
  ].join(", ");
}

/** The report: heading, date, machine, table, notes, and how long each module took. */
function report(results: ModuleResult[], startedAt: Date, machineLine: string): string {
  const rows = results.flatMap((r) => r.rows);
  const failed = rows.filter((r) => !r.pass).length;
  return [
    "# Benchmarks",
    "",
    `- date: ${startedAt.toISOString()}`,
    `- machine: ${machineLine}`,
    `- modules: ${results.map((r) => `${r.name} (${r.seconds.toFixed(0)} s)`).join(", ")}` +
    (QUICK ? " — BENCH_QUICK=1 (smaller sizes)" : ""),
    `- result: ${rows.length - failed} of ${rows.length} rows pass`,
    "",
    formatTable(rows),
    "",
    "## What limits each figure",
    "",
    formatNotes(rows),
    "",
  ].join("\n");
}

if (import.meta.main) {
  const available = moduleNames();
  const wanted = Deno.args.map((a) => a.replace(/^bench\//, "").replace(/\.ts$/, ""));
  const unknown = wanted.filter((w) => !available.includes(w));
  if (unknown.length > 0) {
    console.error(`unknown benchmark ${unknown.join(", ")}; available: ${available.join(", ")}`);
    Deno.exit(2);
  }
  const names = wanted.length > 0 ? wanted : available;
  const startedAt = new Date();
  const machineLine = machine();
  const results: ModuleResult[] = [];
  for (const name of names) {
    console.error(`bench: ${name} ...`);
    const result = await runModule(name);
    const failed = result.rows.filter((r) => !r.pass).length;
    console.error(
      `bench: ${name} done in ${result.seconds.toFixed(1)} s, ` +
        `${result.rows.length} rows, ${failed} failing`,
    );
    results.push(result);
  }
  const text = report(results, startedAt, machineLine);
  console.log(text);
  const out = new URL("results/latest.md", BENCH_DIR);
  await Deno.mkdir(new URL("results/", BENCH_DIR), { recursive: true });
  await Deno.writeTextFile(out, text);
  console.error(`bench: written to bench/results/latest.md`);
  const anyFailed = results.some((r) => r.rows.some((row) => !row.pass));
  Deno.exit(anyFailed ? 1 : 0);
}
