/**
 * The shape every benchmark reports in, and the table `deno task bench` prints. Each
 * `bench/<name>.ts` exports `run(): Promise<BenchRow[]>` and measures this project and its
 * baseline side by side in the same run, against servers it starts on 127.0.0.1 itself.
 */
import { fileURLToPath } from "node:url";

/** One line of the table: a measure, this project's figure, the baseline's, and the target. */
export interface BenchRow {
  /** What is measured, e.g. "cached redirect throughput". */
  measure: string;
  /** Unit of `project` and `baseline`, e.g. "req/s", "ms", "MiB". */
  unit: string;
  project: number;
  /** The baseline's figure in the same unit; null where the row has no baseline (e.g. RSS). */
  baseline: number | null;
  /** project / baseline (or the figure the target is stated on, where there is no baseline). */
  ratio: number;
  /** The target, as text, e.g. ">= 0.85x" or "< 64 MiB". */
  target: string;
  /** Whether the target is met. */
  pass: boolean;
  /** What limits the figure (machine, load tool, what the baseline is). */
  note?: string;
  /** Why the measure could not be taken (the row then fails; the table shows it). */
  error?: string;
}

/** A benchmark module. */
export interface Benchmark {
  run(): Promise<BenchRow[]>;
}

/**
 * `--config` for a benchmark file run as its own process: bench/deno.json, whose import map
 * has the benchmark-only packages (services run with the root deno.json, like users run them).
 */
export const BENCH_CONFIG_ARGS = ["--config", new URL("./deno.json", import.meta.url).pathname];

/** `BENCH_QUICK=1`: modules that support it use smaller sizes and fewer rounds. */
export const QUICK = Deno.env.get("BENCH_QUICK") === "1";

/** The positive whole number in the environment variable `name`, else `fallback`. */
export function envCount(name: string, fallback: number): number {
  const raw = Deno.env.get(name);
  const n = raw === undefined ? fallback : Number(raw);
  if (!Number.isSafeInteger(n) || n < 1) {
    throw new Error(`${name} must be a positive integer, not ${raw}`);
  }
  return n;
}

/** One start of a process: wall time from spawn to its first answer, and the CPU used by then. */
export interface Start {
  ms: number;
  /** User + system CPU of the process at its first answer (ms; 10 ms ticks, from /proc). */
  cpuMs: number;
}

/**
 * The two rows of a start measured against a baseline's starts: the wall time's median (with its
 * target) and the CPU time's (info: less sensitive than wall time to other load on the machine).
 */
export function startRows(
  { measure, cpuMeasure, target, note }: {
    measure: string;
    cpuMeasure: string;
    target: number;
    note: string;
  },
  project: Start[],
  baseline: Start[],
): BenchRow[] {
  const median = (starts: Start[], key: keyof Start) => percentile(starts.map((x) => x[key]), 50);
  const [p, b] = [median(project, "ms"), median(baseline, "ms")];
  const [pc, bc] = [median(project, "cpuMs"), median(baseline, "cpuMs")];
  return [
    {
      measure,
      unit: "ms",
      project: p,
      baseline: b,
      ratio: p / b,
      target: `<= ${target}x`,
      pass: p / b <= target,
      note,
    },
    {
      measure: cpuMeasure,
      unit: "ms",
      project: pc,
      baseline: bc,
      ratio: pc / bc,
      target: "info",
      pass: true,
      note: note + "; user+system CPU of the process at its first answer (/proc, 10 ms ticks): " +
        "less sensitive than wall time to other load on the machine",
    },
  ];
}

/** A FAIL row for a measure that could not be taken; the reason goes in the note. */
export function errorRow(measure: string, error: unknown): BenchRow {
  const message = (error instanceof Error ? error.message : String(error))
    .replace(/\s+/g, " ").slice(0, 500);
  return {
    measure,
    unit: "",
    project: NaN,
    baseline: null,
    ratio: NaN,
    target: "runs",
    pass: false,
    error: message,
  };
}

/** Formats rows as a Markdown table (printed, and pasted into the README). */
export function formatTable(rows: BenchRow[]): string {
  const num = (n: number | null) =>
    n === null || Number.isNaN(n) ? "–" : Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
  const withUnit = (n: number | null, unit: string) =>
    n === null || Number.isNaN(n) ? "–" : `${num(n)} ${unit}`.trim();
  const cell = (text: string) => text.replaceAll("|", "\\|");
  const lines = [
    "| measure | this project | baseline | ratio | target | result |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) =>
      `| ${cell(r.measure)} | ${withUnit(r.project, r.unit)} | ${withUnit(r.baseline, r.unit)} | ${
        Number.isNaN(r.ratio) ? "–" : `${r.ratio.toFixed(2)}x`
      } | ${cell(r.target)} | ${
        r.pass ? "pass" : r.error ? `FAIL: ${cell(r.error.slice(0, 200))}` : "FAIL"
      } |`
    ),
  ];
  return lines.join("\n");
}

/** The rows' notes as a Markdown list (what limits each figure), one item per distinct note. */
export function formatNotes(rows: BenchRow[]): string {
  const byNote = new Map<string, string[]>();
  for (const r of rows) {
    const note = [r.error && `error: ${r.error}`, r.note].filter(Boolean).join("; ");
    if (note) byNote.set(note, [...byNote.get(note) ?? [], r.measure]);
  }
  return [...byNote].map(([note, measures]) => `- ${measures.join("; ")}: ${note}`).join("\n");
}

/**
 * Runs a measured pair in the order of `round`: `baseline` first on even rounds, `project`
 * first on odd ones, so that neither side always starts on a machine the other just warmed.
 */
export async function pairInTurn(
  round: number,
  baseline: () => Promise<unknown>,
  project: () => Promise<unknown>,
): Promise<void> {
  const [first, second] = round % 2 === 0 ? [baseline, project] : [project, baseline];
  await first();
  await second();
}

/** Median and a percentile of samples (ms). */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

/** A child process serving HTTP on 127.0.0.1, started by a benchmark. */
export interface ChildServer {
  /** `http://127.0.0.1:<port>`. */
  origin: string;
  pid: number;
  child: Deno.ChildProcess;
  /** SIGTERM, then SIGKILL after 3 s; resolves once the process is gone. */
  stop(): Promise<void>;
}

/**
 * Starts `deno <args>` from the project root with `PORT=0 HOST=127.0.0.1` (plus `env`), and
 * resolves once Deno prints "Listening on http://127.0.0.1:<port>/" on stderr; the rest of
 * stderr (request logs) is drained and dropped, stdout goes to /dev/null.
 */
export async function spawnServer(
  args: string[],
  env: Record<string, string> = {},
  timeoutMs = 30_000,
): Promise<ChildServer> {
  const child = new Deno.Command(Deno.execPath(), {
    args,
    cwd: new URL("../", import.meta.url),
    env: { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stop = () => stopChild(child);
  try {
    const origin = await listeningOrigin(child, AbortSignal.timeout(timeoutMs));
    return { origin, pid: child.pid, child, stop };
  } catch (err) {
    await stop();
    throw new Error(`deno ${args.join(" ")}: ${err instanceof Error ? err.message : err}`);
  }
}

/** Reads a child's stderr until Deno's "Listening on <origin>/" line; the rest is drained. */
export async function listeningOrigin(
  child: Deno.ChildProcess,
  signal: AbortSignal,
): Promise<string> {
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
export async function stopChild(child: Deno.ChildProcess): Promise<void> {
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

/** User + system CPU seconds a process has used so far (Linux /proc); null where unreadable. */
export function cpuSeconds(pid: number): number | null {
  try {
    const stat = Deno.readTextFileSync(`/proc/${pid}/stat`);
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // utime and stime are fields 14 and 15 of stat(5), in clock ticks (100 per second).
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return null;
  }
}

/** Resident set size of a process (Linux /proc), in bytes. */
export function rssBytes(pid: number): number {
  const status = Deno.readTextFileSync(`/proc/${pid}/status`);
  return Number(status.match(/VmRSS:\s+(\d+) kB/)![1]) * 1024;
}

/** Samples a process's RSS every 20 ms while `work` runs; resolves with the peak (bytes). */
export async function peakRss(pid: number, work: () => Promise<unknown>): Promise<number> {
  let peak = rssBytes(pid);
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, rssBytes(pid));
    } catch {
      // the process is gone; `work` fails on its own
    }
  }, 20);
  try {
    await work();
    return Math.max(peak, rssBytes(pid));
  } finally {
    clearInterval(timer);
  }
}

/** Pause between two polls of `GET /` while a started server comes up. */
const POLL_INTERVAL_MS = 2;
/** At most this many polls of `GET /` after the port is known. */
const MAX_POLLS = 2_000;

/**
 * Cold start of a spawned server: waits until `child` says where it listens, polls `GET /`
 * until it answers 200, and returns the milliseconds since `started` (the spawn). Throws on
 * another status or when `timeoutMs` passes. The child keeps running: the caller stops it.
 */
export async function msToFirst200(
  child: Deno.ChildProcess,
  label: string,
  started: number,
  timeoutMs: number,
): Promise<number> {
  const deadline = AbortSignal.timeout(timeoutMs);
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
    throw new Error(`${label}: GET / answered ${status}`);
  }
  throw new Error(`${label}: no 200 on GET / within ${timeoutMs} ms`);
}

/** Every page of htmlparser-benchmark (real pages of real sites): its file name and text. */
export function* htmlparserBenchmarkPages(): Generator<{ name: string; html: string }> {
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  for (const entry of Deno.readDirSync(dir)) {
    if (entry.isFile) {
      yield { name: entry.name, html: Deno.readTextFileSync(`${dir}/${entry.name}`) };
    }
  }
}
