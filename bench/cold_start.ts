/**
 * Cold start of every experiment: the time from spawning `deno run -A functions/<slug>/main.ts`
 * (PORT=0, HOST=127.0.0.1, a temp DATA_DIR) to the first 200 on `GET /`, against a bare Hono
 * hello-world (bench/fixtures/hono_hello.ts) started the same way, from the same directory
 * (so with the same deno.json, lock file and node_modules).
 *
 * The port is read from the "Listening on http://127.0.0.1:<port>/" line Deno prints on stderr;
 * `GET /` is then polled in a bounded loop. Each experiment is paired with a baseline start
 * right before or after it (the order flips every round), so load from other work on the
 * machine hits both alike; the figures are medians over the rounds, after one warm-up round
 * that fills Deno's caches. Every child is killed before the next one starts.
 *
 * `BENCH_QUICK=1`: fewer rounds. `BENCH_COLD_PROFILE=<dir>`: each experiment's measured starts
 * also run with `--cpu-prof --cpu-prof-dir=<dir>/<slug>` (the figures then include profiling
 * overhead; for finding what to make lazy, not for the table). Names on the command line pick
 * experiments: `deno run -A bench/cold_start.ts screenshot link-shortener`.
 */
import {
  type BenchRow,
  errorRow,
  formatNotes,
  formatTable,
  msToFirst200,
  pairInTurn,
  percentile,
  QUICK,
  stopChild,
} from "./harness.ts";
import { SLUGS } from "../scripts/experiments.ts";

/** Measured rounds; each round starts every experiment once and a baseline next to each. */
const ROUNDS = QUICK ? 3 : 7;
/** The target: an experiment starts within this multiple of the hello-world's time. */
const TARGET = 1.5;
/** Limit on one start (spawn to first 200). */
const START_TIMEOUT_MS = 30_000;

const ROOT = new URL("../", import.meta.url);
const BASELINE = "bench/fixtures/hono_hello.ts";

/** One start of one entrypoint: milliseconds from spawn to the first 200 on `GET /`. */
async function startOnce(
  entry: string,
  dataDir: string,
  extraArgs: string[] = [],
): Promise<number> {
  const started = performance.now();
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...extraArgs, entry],
    cwd: ROOT,
    env: { PORT: "0", HOST: "127.0.0.1", DATA_DIR: dataDir, NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  try {
    return await msToFirst200(child, entry, started, START_TIMEOUT_MS);
  } finally {
    await stopChild(child);
  }
}

/** One thing whose start is timed. */
interface Subject {
  name: string;
  entry: string;
  /** Informational row (no target), e.g. the shared shell's floor. */
  info?: boolean;
}

/** The shared shell alone: the floor under every experiment's figure. */
const SHELL: Subject = { name: "shared shell", entry: "bench/fixtures/shell_only.ts", info: true };

/**
 * Measures the experiments named in `only` (all of them by default), plus the shared shell
 * when `only` is all of them or names "shell". An experiment that fails to start gets a FAIL
 * row with the error; the others are still measured.
 */
export async function measure(only: readonly string[] = SLUGS): Promise<BenchRow[]> {
  const subjects: Subject[] = SLUGS.filter((s) => only.includes(s))
    .map((slug) => ({ name: slug, entry: `functions/${slug}/main.ts` }));
  if (only === SLUGS || only.includes("shell")) subjects.push(SHELL);
  const profileDir = Deno.env.get("BENCH_COLD_PROFILE");
  const profArgs = (s: Subject) =>
    profileDir
      ? [
        "--cpu-prof",
        `--cpu-prof-dir=${profileDir}/${s.name.replaceAll(" ", "_")}`,
        "--preload=bench/fixtures/exit_on_sigterm.ts",
      ]
      : [];
  const temp = await Deno.makeTempDir({ prefix: "bench_cold_start_" });
  const dataDir = (i: number) => `${temp}/${i}`;
  const baselineDir = `${temp}/baseline`;
  const failed = new Map<Subject, unknown>();
  try {
    for (const [i] of subjects.entries()) await Deno.mkdir(dataDir(i));
    await Deno.mkdir(baselineDir);

    // Warm-up: Deno's transpile cache, the npm resolution, the OS page cache; a first start
    // also creates what the experiment keeps in DATA_DIR (e.g. the link shortener's database),
    // so the measured starts are those of a deployment that has run before.
    await startOnce(BASELINE, baselineDir);
    for (const [i, s] of subjects.entries()) {
      await startOnce(s.entry, dataDir(i)).catch((err) => failed.set(s, err));
    }

    const project = subjects.map((): number[] => []);
    const baseline = subjects.map((): number[] => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (const [i, s] of subjects.entries()) {
        if (failed.has(s)) continue;
        const runBaseline = async () => baseline[i].push(await startOnce(BASELINE, baselineDir));
        const runProject = async () =>
          project[i].push(await startOnce(s.entry, dataDir(i), profArgs(s)));
        try {
          await pairInTurn(round, runBaseline, runProject);
        } catch (err) {
          failed.set(s, err);
        }
      }
    }

    return subjects.map((s, i) => {
      const measure = `cold start ${s.name} (spawn → first 200 on GET /)`;
      if (failed.has(s)) return errorRow(measure, failed.get(s));
      const p = percentile(project[i], 50);
      const b = percentile(baseline[i], 50);
      return {
        measure,
        unit: "ms",
        project: p,
        baseline: b,
        ratio: p / b,
        target: s.info ? "info (floor)" : `<= ${TARGET}x`,
        pass: s.info ? true : p / b <= TARGET,
        note: `median of ${ROUNDS} starts each, each paired with a bare Hono hello-world start ` +
          `(order alternating), after a warm-up start; \`deno run -A\` from the project root` +
          (s.info ? "; the shared shell with no routes: what every experiment starts from" : "") +
          (profileDir ? "; WITH --cpu-prof (overhead included)" : ""),
      };
    });
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}

/** The benchmark's rows (harness contract). */
export function run(): Promise<BenchRow[]> {
  return measure();
}

if (import.meta.main) {
  const rows = await measure(Deno.args.length > 0 ? Deno.args : SLUGS);
  console.log(`${formatTable(rows)}\n\n${formatNotes(rows)}`);
}
