/**
 * The lean parser (shared/net/lean_parser.ts, what streamHtmlBounded runs) against htmlparser2's
 * stock Parser under the bounds wrapper it replaced (tests/support/limited_handler.ts), both
 * with the skipping tokenizer, on one page with a handler of /analyze's kind (open tags with
 * their attributes, text, close tags). Ratios lean/stock; medians.
 *
 * `cold`: this module bundled once (`deno bundle --minify`, as the build does), then fresh
 * processes that each parse the page once, stock and lean alternating: the first parse of an
 * instance, mostly in V8's interpreter, timed as the main thread's CPU time. `warm`: one process, the page parsed in 32 KiB slices
 * with the shared cooperative yield between them (as streamHtmlBounded does), alternating.
 *
 * `deno task bench lean_parser` gives the rows; `deno run -A --config bench/deno.json
 * bench/lean_parser.ts [cold|warm] [--page=FILE] [--runs=N]` prints the figures (default: both,
 * the 279 KiB news page of bench/cold_path.ts).
 */
import { Parser } from "htmlparser2";
import type { Handler } from "htmlparser2";
import { cooperative } from "../shared/contract/cooperative.ts";
import { LeanParser } from "../shared/net/lean_parser.ts";
import { DEFAULT_PARSE_LIMITS, parseBounds, PARSER_OPTIONS } from "../shared/net/html.ts";
import { LimitedHandler } from "../tests/support/limited_handler.ts";
import { type BenchRow, errorRow } from "./harness.ts";

const OPTIONS = PARSER_OPTIONS;
const LIMITS = { ...DEFAULT_PARSE_LIMITS };
const BOUNDS = parseBounds(LIMITS);

type Kind = "stock" | "lean";

/** /analyze's kind of handler: reads a few attributes of each tag, sums the text. */
function analyzerHandler(): { handler: Partial<Handler>; result: () => number } {
  let depth = 0, tags = 0, text = 0, srcs = 0;
  return {
    handler: {
      onopentag(_name, attribs) {
        depth++;
        tags++;
        if (attribs.src || attribs.href) srcs++;
      },
      ontext(data) {
        text += data.length;
      },
      onclosetag() {
        depth--;
      },
    },
    result: () => tags * 31 + text + srcs + depth,
  };
}

function makeParser(kind: Kind, handler: Partial<Handler>): Parser {
  return kind === "lean"
    ? new LeanParser(handler, OPTIONS, BOUNDS)
    : new Parser(new LimitedHandler(handler, LIMITS), OPTIONS);
}

/** One parse in slices, synchronously (the cold child). */
function parseOnce(kind: Kind, html: string): number {
  const { handler, result } = analyzerHandler();
  const parser = makeParser(kind, handler);
  for (let at = 0; at < html.length; at += LIMITS.sliceChars) {
    parser.write(html.slice(at, at + LIMITS.sliceChars));
  }
  parser.end();
  return result();
}

/** One parse as streamHtmlBounded runs it: slices with the cooperative yield between. */
async function parseStreamed(kind: Kind, html: string): Promise<number> {
  const { handler, result } = analyzerHandler();
  const parser = makeParser(kind, handler);
  const yieldSoon = cooperative();
  for (let at = 0; at < html.length; at += LIMITS.sliceChars) {
    if (at > 0) await yieldSoon();
    parser.write(html.slice(at, at + LIMITS.sliceChars));
  }
  parser.end();
  return result();
}

/**
 * This thread's time on a CPU (Linux's schedstat): on a machine shared with other benchmarks,
 * time spent waiting for a core is left out, which wall time would add at random. The kernel
 * brings it up to date at scheduler ticks, so one run's figure is coarse (a few ms): read
 * medians over many runs.
 */
function threadCpuMs(): number {
  return Number(Deno.readTextFileSync("/proc/thread-self/schedstat").split(" ")[0]) / 1e6;
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[s.length >> 1] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/** One comparison: medians, their ratio and the median of the runs' paired ratios. */
interface Figures {
  stock: number;
  lean: number;
  paired: number;
  note: string;
}

/** Medians, their ratio and the median of the runs' paired ratios (each pair ran together). */
function report(what: string, stock: number[], lean: number[]): Figures {
  const [s, l] = [median(stock), median(lean)];
  const paired = median(lean.map((x, i) => x / stock[i]));
  const note = `${stock.length} + ${lean.length} runs, alternating; paired ratio ` +
    `${paired.toFixed(2)}; load ${Deno.loadavg()[0].toFixed(2)}`;
  console.log(
    `${what}: stock ${s.toFixed(2)} ms, lean ${l.toFixed(2)} ms, lean/stock ${(l / s).toFixed(2)}` +
      ` (${note})`,
  );
  return { stock: s, lean: l, paired, note };
}

async function cold(page: string, runs: number): Promise<Figures> {
  const dir = await Deno.makeTempDir();
  try {
    const bundle = `${dir}/lean_parser.js`;
    const built = await new Deno.Command(Deno.execPath(), {
      args: [
        "bundle",
        "--quiet",
        "--platform=deno",
        "--minify",
        "-o",
        bundle,
        import.meta.filename!,
      ],
    }).output();
    if (!built.success) throw new Error(new TextDecoder().decode(built.stderr));
    const times: Record<Kind, number[]> = { stock: [], lean: [] };
    const results = new Set<string>();
    for (let i = 0; i < runs; i++) {
      for (const kind of (i % 2 ? ["lean", "stock"] : ["stock", "lean"]) as Kind[]) {
        const out = await new Deno.Command(Deno.execPath(), {
          args: ["run", "-A", bundle, "child", kind, page],
        }).output();
        if (!out.success) throw new Error(new TextDecoder().decode(out.stderr));
        const [ms, result] = new TextDecoder().decode(out.stdout).trim().split(" ");
        times[kind].push(Number(ms));
        results.add(result);
      }
    }
    if (results.size !== 1) throw new Error(`the parsers disagree: ${[...results]}`);
    return report("cold (fresh process, one parse, thread CPU time)", times.stock, times.lean);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}

async function warm(page: string, runs: number): Promise<Figures[]> {
  const html = Deno.readTextFileSync(page);
  const times: Record<Kind, number[]> = { stock: [], lean: [] };
  for (let i = 0; i < 20; i++) await parseStreamed(i % 2 ? "lean" : "stock", html);
  for (let i = 0; i < runs; i++) {
    for (const kind of (i % 2 ? ["lean", "stock"] : ["stock", "lean"]) as Kind[]) {
      const started = performance.now();
      await parseStreamed(kind, html);
      times[kind].push(performance.now() - started);
    }
  }
  if (await parseStreamed("lean", html) !== await parseStreamed("stock", html)) {
    throw new Error("the parsers disagree");
  }
  const streamed = report("warm (one process, streamed)", times.stock, times.lean);
  // The parse alone: no pause (a pause past the 25 ms slice adds a timer's wait to a run).
  const sync: Record<Kind, number[]> = { stock: [], lean: [] };
  for (let i = 0; i < runs; i++) {
    for (const kind of (i % 2 ? ["lean", "stock"] : ["stock", "lean"]) as Kind[]) {
      const started = performance.now();
      parseOnce(kind, html);
      sync[kind].push(performance.now() - started);
    }
  }
  return [streamed, report("warm (one process, parse only)", sync.stock, sync.lean)];
}

/** The page these figures are on: bench/cold_path.ts's news page, in a temporary file. */
async function newsPageFile(): Promise<string> {
  // Not a literal: the bundle the children run leaves cold_path.ts out.
  const coldPath = "./cold_path.ts";
  const { newsPage } = await import(coldPath);
  const page = await Deno.makeTempFile({ suffix: ".html" });
  Deno.writeFileSync(page, newsPage().html);
  return page;
}

/** A lean/stock row; the lean parser must not be slower where the target says so. */
function row(measure: string, f: Figures, target: number | null, page: string): BenchRow {
  return {
    measure,
    unit: "ms",
    project: f.lean,
    baseline: f.stock,
    ratio: f.lean / f.stock,
    target: target === null ? "info" : `<= ${target}x`,
    pass: target === null || f.lean <= f.stock * target,
    note: `shared/net/lean_parser.ts against htmlparser2's Parser + the old bounds wrapper, ` +
      `both with the skipping tokenizer, /analyze's kind of handler, ${page}; ${f.note}`,
  };
}

/** The rows: the warm parse (streamed as the routes do, and alone) and a fresh instance's. */
export async function run(): Promise<BenchRow[]> {
  const page = await newsPageFile();
  const note = "the 279 KiB news page of bench/cold_path.ts";
  try {
    const [streamed, alone] = await warm(page, 45);
    const first = await cold(page, 9);
    return [
      row("lean parser, warm: one page streamed in slices", streamed, 1, note),
      row("lean parser, warm: one page, the parse alone", alone, 1, note),
      row("lean parser, cold: a fresh process's first parse (thread CPU)", first, null, note),
    ];
  } catch (err) {
    return [errorRow("lean parser, warm: one page streamed in slices", err)];
  } finally {
    await Deno.remove(page);
  }
}

if (import.meta.main) {
  const [mode, ...rest] = Deno.args;
  if (mode === "child") {
    const [kind, page] = rest as [Kind, string];
    const html = Deno.readTextFileSync(page);
    const cpu = threadCpuMs();
    const result = parseOnce(kind, html);
    console.log(`${(threadCpuMs() - cpu).toFixed(2)} ${result}`);
  } else {
    const flag = (name: string) =>
      Deno.args.find((a) => a.startsWith(`--${name}=`))?.slice(name.length + 3);
    const page = flag("page") ?? await newsPageFile();
    const runs = Number(flag("runs") ?? 9);
    if (mode !== "warm") await cold(page, runs);
    if (mode !== "cold") await warm(page, runs * 5);
  }
}
