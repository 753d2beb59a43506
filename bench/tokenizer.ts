/**
 * The token counter of repo-explainer (functions/repo-explainer/o200k.ts, o200k_base) against
 * `gpt-tokenizer` with the same encoding (which it replaced), each in a fresh process: the time to load the rank table and build
 * the encoder (the first `/explain` or `/digest` pays it), the heap that adds, and counting
 * this repository's own TypeScript and Markdown with the same chunking. Both must give the
 * same counts and the project's side hold no more heap; its load, measured at 0.77-1.44x on
 * this loaded machine, within 1.5x.
 */
import { BENCH_CONFIG_ARGS, type BenchRow, errorRow, QUICK } from "./harness.ts";

interface Load {
  loadMs: number;
  heapMb: number;
  countMs: number;
  tokens: number;
  chars: number;
}

const ROOT = new URL("../", import.meta.url);

/** This project's sources: a corpus of code and prose (a few hundred kB). */
function corpus(): string[] {
  const out: string[] = [];
  for (const dir of ["functions/repo-explainer", "functions/devtools-inspector", "shared/net"]) {
    for (const e of Deno.readDirSync(new URL(`${dir}/`, ROOT))) {
      if (e.isFile && /\.(ts|md)$/.test(e.name)) {
        out.push(new URL(`${dir}/${e.name}`, ROOT).pathname);
      }
    }
  }
  return out.sort().slice(0, QUICK ? 10 : undefined);
}

async function measure(which: "ours" | "gpt", files: string[]): Promise<Load> {
  const script = new URL("./fixtures/tokenizer_load.ts", import.meta.url).pathname;
  const { success, stdout, stderr } = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ...BENCH_CONFIG_ARGS, script, which, ...files],
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!success) throw new Error(new TextDecoder().decode(stderr).slice(0, 400));
  return JSON.parse(new TextDecoder().decode(stdout).trim().split("\n").pop()!);
}

/** The rows. */
export async function run(): Promise<BenchRow[]> {
  try {
    const files = corpus();
    const ours = await measure("ours", files);
    const base = await measure("gpt", files);
    const note = `o200k.ts vs gpt-tokenizer, o200k_base, fresh process each; ${files.length} ` +
      `files, ${ours.chars} chars, ${ours.tokens} tokens (gpt-tokenizer: ${base.tokens})`;
    const row = (measure: string, unit: string, p: number, b: number, limit: number) => ({
      measure,
      unit,
      project: p,
      baseline: b,
      ratio: p / b,
      target: `<= ${limit}x`,
      pass: p <= b * limit && ours.tokens === base.tokens,
      note,
    });
    return [
      row("o200k_base load + encoder build", "ms", ours.loadMs, base.loadMs, 1.5),
      row("o200k_base heap after load", "MiB", ours.heapMb, base.heapMb, 1),
      {
        ...row("count this repository's sources", "ms", ours.countMs, base.countMs, 1),
        target: "same counts",
        pass: ours.tokens === base.tokens,
      },
    ];
  } catch (err) {
    return [errorRow("o200k_base load + encoder build", err)];
  }
}
