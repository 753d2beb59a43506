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
import { type BenchRow, formatTable, percentile } from "./harness.ts";

/** Every experiment, as functions/<slug>/. */
export const SLUGS = [
  "dependency-analyzer",
  "metadata-extractor",
  "devtools-inspector",
  "ai-summary",
  "repo-explainer",
  "screenshot",
  "link-shortener",
  "object-storage",
] as const;

const QUICK = Deno.env.get("BENCH_QUICK") === "1";
/** Measured rounds; each round starts every experiment once and a baseline next to each. */
const ROUNDS = QUICK ? 3 : 7;
/** The target: an experiment starts within this multiple of the hello-world's time. */
const TARGET = 1.5;
/** Limit on one start (spawn to first 200). */
const START_TIMEOUT_MS = 30_000;
/** Pause between two polls of `GET /`. */
const POLL_INTERVAL_MS = 2;
/** At most this many polls of `GET /` after the port is known. */
const MAX_POLLS = 2_000;

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
  const deadline = AbortSignal.timeout(START_TIMEOUT_MS);
  try {
    const origin = await listeningOrigin(child, deadline);
    for (let poll = 0; poll < MAX_POLLS && !deadline.aborted; poll++) {
      let status: number;
      try {
        const res = await fetch(`${origin}/`, { signal: deadline });
        await res.arrayBuffer();
        status = res.status;
      } catch {
        // Not accepting connections yet.
        await new Promise((r) => setTimeout(r, POLL_INTERVAL_MS));
        continue;
      }
      if (status === 200) return performance.now() - started;
      throw new Error(`${entry}: GET / answered ${status}`);
    }
    throw new Error(`${entry}: no 200 on GET / within ${START_TIMEOUT_MS} ms`);
  } finally {
    await kill(child);
  }
}

/** Reads the child's stderr until Deno's "Listening on <origin>/" line; the rest is drained. */
async function listeningOrigin(child: Deno.ChildProcess, signal: AbortSignal): Promise<string> {
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const onAbort = () => reader.cancel().catch(() => {});
  signal.addEventListener("abort", onAbort, { once: true });
  let seen = "";
  try {
    while (true) {
      const { value, done } = await reader.read();
      if (done || signal.aborted) {
        throw new Error(`exited or timed out before listening: ${seen.trim().slice(-500)}`);
      }
      seen += value;
      const match = seen.match(/Listening on (http:\/\/[^\s/]+)/);
      if (match) {
        // Keep draining so a chatty child never blocks on a full pipe.
        (async () => {
          try {
            while (!(await reader.read()).done) { /* drain */ }
          } catch { /* cancelled */ }
        })();
        return match[1];
      }
    }
  } finally {
    signal.removeEventListener("abort", onAbort);
  }
}

/** SIGTERM, then SIGKILL if the child is still there after 3 s. */
async function kill(child: Deno.ChildProcess): Promise<void> {
  try {
    child.kill("SIGTERM");
  } catch {
    // already exited
  }
  const timer = setTimeout(() => {
    try {
      child.kill("SIGKILL");
    } catch {
      // exited meanwhile
    }
  }, 3_000);
  await child.status;
  clearTimeout(timer);
  await child.stderr.cancel().catch(() => {});
}

/** Measures the experiments named in `only` (all of them by default). */
export async function measure(only: readonly string[] = SLUGS): Promise<BenchRow[]> {
  const slugs = SLUGS.filter((s) => only.includes(s));
  const profileDir = Deno.env.get("BENCH_COLD_PROFILE");
  const temp = await Deno.makeTempDir({ prefix: "bench_cold_start_" });
  try {
    const dataDir = (name: string) => `${temp}/${name}`;
    for (const name of ["baseline", ...slugs]) await Deno.mkdir(dataDir(name));
    const entry = (slug: string) => `functions/${slug}/main.ts`;
    const profArgs = (slug: string) =>
      profileDir
        ? [
          "--cpu-prof",
          `--cpu-prof-dir=${profileDir}/${slug}`,
          "--preload=bench/fixtures/exit_on_sigterm.ts",
        ]
        : [];

    // Warm-up: Deno's transpile cache, the npm resolution, the OS page cache; a first start
    // also creates what the experiment keeps in DATA_DIR (e.g. the link shortener's database),
    // so the measured starts are those of a deployment that has run before.
    await startOnce(BASELINE, dataDir("baseline"));
    for (const slug of slugs) await startOnce(entry(slug), dataDir(slug));

    const project = new Map<string, number[]>(slugs.map((s) => [s, []]));
    const baseline = new Map<string, number[]>(slugs.map((s) => [s, []]));
    for (let round = 0; round < ROUNDS; round++) {
      for (const slug of slugs) {
        const runBaseline = async () =>
          baseline.get(slug)!.push(await startOnce(BASELINE, dataDir("baseline")));
        const runProject = async () =>
          project.get(slug)!.push(await startOnce(entry(slug), dataDir(slug), profArgs(slug)));
        if (round % 2 === 0) {
          await runBaseline();
          await runProject();
        } else {
          await runProject();
          await runBaseline();
        }
      }
    }

    return slugs.map((slug) => {
      const p = percentile(project.get(slug)!, 50);
      const b = percentile(baseline.get(slug)!, 50);
      return {
        measure: `cold start ${slug} (spawn → first 200 on GET /)`,
        unit: "ms",
        project: p,
        baseline: b,
        ratio: p / b,
        target: `<= ${TARGET}x`,
        pass: p / b <= TARGET,
        note: `median of ${ROUNDS} starts each, each paired with a bare Hono hello-world start ` +
          `(order alternating), after a warm-up start; \`deno run -A\` from the project root` +
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
  console.log(formatTable(rows));
  for (const row of rows) if (row.note) console.log(`- ${row.measure}: ${row.note}`);
}
