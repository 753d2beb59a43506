/**
 * `/analyze` (dependency-analyzer) and `/inspect` (devtools-inspector) on a 500 KiB page:
 * per-request latency (median, p99) and the server's memory, against a bare fetch of the
 * same page, so the ratio shows what parsing and analysis cost on top of fetching.
 *
 * Every server is its own process on 127.0.0.1, started here and stopped at the end:
 * - the page: bench/fixtures/page_server.ts serves one deterministic ~500 KiB HTML page,
 *   built from the fixture pages in tests/fixtures/pages/ (their heads merged, their bodies
 *   repeated as feed items with distinct links until the size is reached);
 * - the two experiments through their real entrypoints (`deno run -A functions/<slug>/main.ts`,
 *   `ALLOW_PRIVATE_NETWORKS=true` so that they may fetch from loopback);
 * - the baseline: bench/fixtures/fetch_passthrough.ts, `Deno.serve` + the shared safe fetch
 *   of the same page with the same policy, answering a small JSON note;
 * - a parse-only server (the same fixture with `PARSE=1`): the baseline plus one streaming
 *   parse of the page with the parser both routes use, reading nothing: its rows show what a
 *   page route costs before any analysis (its RSS growth is over the routes' target already).
 *
 * Load: autocannon in this process, one connection (latency per request, not throughput),
 * a bounded number of requests per round. Warm-up requests first (the first one also loads
 * the route's lazily imported modules; its time is reported on its own), then the subjects
 * take turns in rounds, so machine load hits them alike. Memory: the server's RSS sampled
 * every 20 ms from /proc during the measured rounds; the figure is the peak over its RSS
 * when idle after start-up.
 *
 * `BENCH_QUICK=1`: fewer requests. Run alone: `deno run -A bench/page_routes.ts`.
 */
import autocannon from "autocannon";
import {
  type BenchRow,
  type ChildServer,
  errorRow,
  formatNotes,
  formatTable,
  peakRss,
  percentile,
  QUICK,
  rssBytes,
  spawnServer,
} from "./harness.ts";

/** Size of the generated page. */
const PAGE_BYTES = 500 * 1024;
/** Requests per subject before measuring. */
const WARMUP = QUICK ? 5 : 15;
/** Measured rounds; every subject takes one turn per round. */
const ROUNDS = QUICK ? 2 : 4;
/** Requests per subject per round. */
const REQUESTS = QUICK ? 15 : 50;
/** Targets, stated before measuring, for this 2-core machine (tighter per route where one was set). */
const MEDIAN_TARGET_MS = 50;
const P99_TARGET_MS = 100;
/**
 * The old sequential-run memory target, kept for comparison only: it was below what fetching and
 * parsing the page take on this runtime, and is replaced by peak RSS with 8 and 64 requests in
 * flight (bench/cold_path.ts, <= 256 and <= 512 MiB).
 */
const RSS_TARGET_MIB = 64;

const MiB = 1024 * 1024;

/** One measured route. */
interface Route {
  slug: string;
  /** Path without the query, e.g. `/analyze`. */
  path: string;
  /** Latency targets (ms) where they differ from the defaults. */
  medianMs?: number;
  p99Ms?: number;
}

const ROUTES: Route[] = [
  // Median <= 25 ms, p99 <= 60 ms with the full technology rule set.
  { slug: "dependency-analyzer", path: "/analyze", medianMs: 25, p99Ms: 60 },
  // The same targets for /inspect, with its Observatory probes.
  { slug: "devtools-inspector", path: "/inspect", medianMs: 25, p99Ms: 60 },
];

/** Reads a fixture page. */
function fixture(name: string): string {
  return Deno.readTextFileSync(new URL(`../tests/fixtures/pages/${name}`, import.meta.url));
}

/**
 * A deterministic page of at least `bytes` bytes (UTF-8): the head of the Next.js fixture
 * with the other fixtures' head elements after it (scripts, stylesheets, preloads, meta,
 * JSON-LD), then the fixtures' bodies repeated in turn as feed items, every root-relative
 * link and source made distinct per item (`?item=<n>`), as a long feed or archive page is.
 * Only the first copy of each body keeps its scripts and iframes: a real page of this size
 * carries tens of those, not hundreds.
 */
export function buildPage(bytes: number): string {
  const pages = ["nextjs.html", "blog.html", "wordpress.html"].map(fixture);
  const head = (html: string) => html.match(/<head>([\s\S]*?)<\/head>/)![1];
  const body = (html: string) => html.match(/<body[^>]*>([\s\S]*?)<\/body>/)![1];
  const [first, ...rest] = pages;
  const extraHead = rest.map((html) =>
    head(html).replace(/\s*<meta charset[^>]*>/i, "").replace(/\s*<title>[\s\S]*?<\/title>/i, "")
  );
  const open = `<!DOCTYPE html>\n<html lang="en">\n<head>${head(first)}${
    extraHead.join("")
  }</head>\n<body>\n<main class="feed">\n`;
  const close = "</main>\n</body>\n</html>\n";
  const bodies = pages.map(body);
  const encoder = new TextEncoder();
  const parts = [open];
  let size = encoder.encode(open + close).length;
  for (let item = 0; size < bytes; item++) {
    let content = bodies[item % bodies.length];
    if (item >= bodies.length) {
      content = content.replace(/<(script|iframe)\b[\s\S]*?<\/\1>\s*/gi, "");
    }
    const section = `<section id="item-${item}" class="feed-item">\n${
      content.replace(
        /\b(href|src)="\/([^"]*)"/g,
        (_m, attr, path) => `${attr}="/${path}${path.includes("?") ? "&" : "?"}item=${item}"`,
      )
    }\n</section>\n`;
    parts.push(section);
    size += encoder.encode(section).length;
  }
  parts.push(close);
  return parts.join("");
}

/** Per-request latencies (ms) of `amount` requests on one connection; throws unless all 200. */
async function load(url: string, amount: number): Promise<number[]> {
  const samples: number[] = [];
  const tracker = autocannon({ url, connections: 1, amount, timeout: 30 });
  tracker.on("response", (_client: unknown, _status: number, _bytes: number, ms: number) => {
    samples.push(ms);
  });
  const result = await tracker;
  const total = result.requests.total;
  if (result.errors > 0 || result.timeouts > 0 || result["2xx"] !== total || total !== amount) {
    throw new Error(
      `${url}: ${total}/${amount} requests, ${result["2xx"]} 2xx, ${result.non2xx} other, ` +
        `${result.errors} errors, ${result.timeouts} timeouts`,
    );
  }
  return samples;
}

/** A server under measurement and what was measured of it. */
interface Subject {
  name: string;
  /** Absent when it did not start. */
  server?: ChildServer;
  url: string;
  idleRss: number;
  /** RSS after the first request and the warm-up (modules loaded, rules compiled, JIT warm). */
  warmRss: number;
  peakRss: number;
  first: number;
  samples: number[];
  /** Why it could not be measured (it is then left out of the rounds). */
  error?: string;
}

/** One request; null on success, else a one-line reason (status and body excerpt). */
async function probe(url: string): Promise<string | null> {
  const res = await fetch(url);
  const body = await res.text();
  return res.status === 200 ? null : `HTTP ${res.status}: ${body.slice(0, 200)}`;
}

/**
 * Starts one subject: its server, idle RSS, the first (cold) request and the warm-up. A
 * subject that cannot be measured comes back with `error` set.
 */
async function prepare(
  name: string,
  args: string[],
  env: Record<string, string>,
  pathAndQuery: string,
): Promise<Subject> {
  let server: ChildServer;
  try {
    server = await spawnServer(args, env);
  } catch (err) {
    const error = err instanceof Error ? err.message : String(err);
    return {
      name,
      url: "",
      idleRss: NaN,
      warmRss: NaN,
      peakRss: NaN,
      first: NaN,
      samples: [],
      error,
    };
  }
  const subject: Subject = {
    name,
    server,
    url: `${server.origin}${pathAndQuery}`,
    idleRss: rssBytes(server.pid),
    warmRss: NaN,
    peakRss: 0,
    first: NaN,
    samples: [],
  };
  const started = performance.now();
  const failure = await probe(subject.url).catch((err) => String(err));
  subject.first = performance.now() - started;
  if (failure) {
    subject.error = failure.startsWith("HTTP 404")
      ? `${name} does not serve ${pathAndQuery.split("?")[0]} yet (${failure})`
      : failure;
    return subject;
  }
  try {
    await load(subject.url, WARMUP);
    subject.warmRss = rssBytes(server.pid);
  } catch (err) {
    subject.error = err instanceof Error ? err.message : String(err);
  }
  return subject;
}

/** Runs the benchmark; see the module comment. */
export async function run(): Promise<BenchRow[]> {
  const temp = await Deno.makeTempDir({ prefix: "bench_page_routes_" });
  const subjects: Subject[] = [];
  let pageServer: ChildServer | undefined;
  try {
    const html = buildPage(PAGE_BYTES);
    const pageBytes = new TextEncoder().encode(html).length;
    await Deno.writeTextFile(`${temp}/page.html`, html);
    pageServer = await spawnServer(["run", "-A", "bench/fixtures/page_server.ts"], {
      PAGE_FILE: `${temp}/page.html`,
    });
    const pageUrl = `${pageServer.origin}/feed/page.html`;
    const query = `?url=${encodeURIComponent(pageUrl)}`;
    const env = { ALLOW_PRIVATE_NETWORKS: "true", DATA_DIR: temp };

    const baseline = await prepare(
      "fetch-only baseline",
      ["run", "-A", "bench/fixtures/fetch_passthrough.ts"],
      env,
      `/${query}`,
    );
    subjects.push(baseline);
    if (baseline.error) throw new Error(`baseline: ${baseline.error}`);
    const parseOnly = await prepare(
      "parse-only server",
      ["run", "-A", "bench/fixtures/fetch_passthrough.ts"],
      { ...env, PARSE: "1" },
      `/${query}`,
    );
    subjects.push(parseOnly);
    for (const route of ROUTES) {
      subjects.push(
        await prepare(
          route.slug,
          ["run", "-A", `functions/${route.slug}/main.ts`],
          env,
          `${route.path}${query}`,
        ),
      );
    }

    // Measured rounds: every live subject once per round, the order rotating.
    const live = () => subjects.filter((s) => !s.error);
    for (let round = 0; round < ROUNDS; round++) {
      const turn = live();
      for (let k = 0; k < turn.length; k++) {
        const s = turn[(k + round) % turn.length];
        try {
          const peak = await peakRss(s.server!.pid, async () => {
            s.samples.push(...await load(s.url, REQUESTS));
          });
          s.peakRss = Math.max(s.peakRss, peak);
        } catch (err) {
          s.error = err instanceof Error ? err.message : String(err);
        }
      }
    }
    if (baseline.error) throw new Error(`baseline: ${baseline.error}`);

    const note = `${(pageBytes / 1024).toFixed(0)} KiB page from tests/fixtures/pages, served ` +
      `uncompressed from its own process on loopback; autocannon, 1 connection, ` +
      `${ROUNDS}×${REQUESTS} requests per subject in alternating rounds after ${WARMUP} ` +
      `warm-up; baseline = Deno.serve + shared safeFetch of the same page (no parsing); ` +
      `${navigator.hardwareConcurrency} CPUs shared by load generator, page server and app`;
    const rows: BenchRow[] = [];
    const base = {
      median: percentile(baseline.samples, 50),
      p99: percentile(baseline.samples, 99),
      rss: (baseline.peakRss - baseline.idleRss) / MiB,
      loading: (baseline.warmRss - baseline.idleRss) / MiB,
      steady: (baseline.peakRss - baseline.warmRss) / MiB,
    };
    rows.push(...parseOnlyRows(parseOnly, baseline, pageBytes, note));
    for (const route of ROUTES) {
      const s = subjects.find((x) => x.name === route.slug)!;
      const label = `GET ${route.path} (${route.slug}), ${(pageBytes / 1024).toFixed(0)} KiB page`;
      if (s.error) {
        rows.push(errorRow(label, s.error));
        continue;
      }
      const median = percentile(s.samples, 50);
      const p99 = percentile(s.samples, 99);
      const rss = (s.peakRss - s.idleRss) / MiB;
      const loading = (s.warmRss - s.idleRss) / MiB;
      const steady = (s.peakRss - s.warmRss) / MiB;
      rows.push(
        {
          measure: `${label}: median latency`,
          unit: "ms",
          project: median,
          baseline: base.median,
          ratio: median / base.median,
          target: `median <= ${route.medianMs ?? MEDIAN_TARGET_MS} ms`,
          pass: median <= (route.medianMs ?? MEDIAN_TARGET_MS),
          note: `${note}; ${s.samples.length} samples`,
        },
        {
          measure: `${label}: p99 latency`,
          unit: "ms",
          project: p99,
          baseline: base.p99,
          ratio: p99 / base.p99,
          target: `p99 <= ${route.p99Ms ?? P99_TARGET_MS} ms`,
          pass: p99 <= (route.p99Ms ?? P99_TARGET_MS),
          note: `${note}; p99 of ${s.samples.length} samples is their ` +
            `${Math.ceil(0.99 * s.samples.length)}th fastest`,
        },
        {
          measure: `${label}: server RSS growth`,
          unit: "MiB",
          project: rss,
          baseline: base.rss,
          ratio: rss / base.rss,
          target: "info",
          pass: true,
          note: `peak RSS during the measured rounds (sampled every 20 ms from /proc) minus ` +
            `RSS when idle after start-up (${(s.idleRss / MiB).toFixed(0)} MiB; baseline ` +
            `${(baseline.idleRss / MiB).toFixed(0)} MiB); includes modules loaded on first use; ` +
            "most of it is V8 growing its heap before collecting (the fetch-only baseline " +
            `grows too), not memory kept per request; the old < ${RSS_TARGET_MIB} MiB target ` +
            "is replaced by peak RSS under 8 and 64 in flight (cold_path.ts)",
        },
        {
          measure: `${label}: RSS growth over loading and warm-up`,
          unit: "MiB",
          project: loading,
          baseline: base.loading,
          ratio: loading / base.loading,
          target: "info",
          pass: true,
          note: `RSS after the first request and the ${WARMUP} warm-up requests minus RSS when ` +
            "idle after start-up: modules loaded on first use, rules compiled, JIT warm",
        },
        {
          measure: `${label}: RSS growth over the measured rounds`,
          unit: "MiB",
          project: steady,
          baseline: base.steady,
          ratio: steady / base.steady,
          target: "info",
          pass: true,
          note: "peak RSS during the measured rounds minus RSS after the warm-up: the heap " +
            "growing from per-request garbage (V8's young generation up to its maximum)",
        },
        {
          measure: `${label}: first request after start`,
          unit: "ms",
          project: s.first,
          baseline: baseline.first,
          ratio: s.first / baseline.first,
          target: "info",
          pass: true,
          note: "the first request loads the route's lazily imported modules (parser, " +
            "analysis) and runs cold code; a single sample",
        },
      );
    }
    return rows;
  } finally {
    for (const s of subjects) await s.server?.stop();
    await pageServer?.stop();
    await Deno.remove(temp, { recursive: true });
  }
}

/** The parse-only server's rows: median latency and RSS growth against the fetch-only baseline. */
function parseOnlyRows(
  s: Subject,
  baseline: Subject,
  pageBytes: number,
  note: string,
): BenchRow[] {
  const label = `parse-only server (safe fetch + one streaming parse, no analysis), ${
    (pageBytes / 1024).toFixed(0)
  } KiB page`;
  if (s.error) return [errorRow(label, s.error)];
  const growth = (x: Subject) => (x.peakRss - x.idleRss) / MiB;
  const median = percentile(s.samples, 50);
  const base = percentile(baseline.samples, 50);
  return [
    {
      measure: `${label}: median latency`,
      unit: "ms",
      project: median,
      baseline: base,
      ratio: median / base,
      target: "info",
      pass: true,
      note: `${note}; what parsing alone adds to a fetch, before a route reads anything`,
    },
    {
      measure: `${label}: server RSS growth`,
      unit: "MiB",
      project: growth(s),
      baseline: growth(baseline),
      ratio: growth(s) / growth(baseline),
      target: "info",
      pass: true,
      note: `measured as the routes' RSS rows; compare with their < ${RSS_TARGET_MIB} MiB ` +
        "target: V8 grows its young generation for the parser's garbage (to 27 MiB committed " +
        "in a --trace-gc-verbose run, against 3 MiB for the fetch-only baseline)",
    },
  ];
}

if (import.meta.main) {
  const rows = await run();
  console.log(`${formatTable(rows)}\n\n${formatNotes(rows)}`);
}
