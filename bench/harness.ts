/**
 * The shape every benchmark reports in, and the table `deno task bench` prints. Each
 * `bench/<name>.ts` exports `run(): Promise<BenchRow[]>` and measures this project and its
 * baseline side by side in the same run, against servers it starts on 127.0.0.1 itself.
 */

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
}

/** A benchmark module. */
export interface Benchmark {
  run(): Promise<BenchRow[]>;
}

/** Formats rows as a Markdown table (printed, and pasted into the README). */
export function formatTable(rows: BenchRow[]): string {
  const num = (n: number | null) =>
    n === null ? "–" : Math.abs(n) >= 100 ? n.toFixed(0) : n.toFixed(2);
  const lines = [
    "| measure | this project | baseline | ratio | target | result |",
    "|---|---|---|---|---|---|",
    ...rows.map((r) =>
      `| ${r.measure} | ${num(r.project)} ${r.unit} | ${
        r.baseline === null ? "–" : `${num(r.baseline)} ${r.unit}`
      } | ${r.ratio.toFixed(2)}x | ${r.target} | ${r.pass ? "pass" : "FAIL"} |`
    ),
  ];
  return lines.join("\n");
}

/** Median and a percentile of samples (ms). */
export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
