/**
 * Screenshot latency: `GET /screenshot` through the running service (HTTP, page slot, policy
 * proxy, incognito context, its own network-idle detection, PNG over the wire; the repeat
 * cache off) against raw puppeteer-core doing the same capture (context, page, 1280x800
 * viewport, goto until `networkidle0`, PNG) on the same browser, interleaved in the same run.
 * Every pair of PNGs is compared pixel for pixel (the pages are settled: what the faster idle
 * detection captures must be what networkidle0 captures). Plus the cold first screenshot,
 * browser launch included, against a raw launch + capture. The pages are fixtures served on
 * 127.0.0.1: one with a stylesheet, a script and an image, one that fetches after `load`.
 */
import puppeteer, { type Browser } from "puppeteer-core";
import { type BenchRow, formatTable, percentile, spawnServer } from "./harness.ts";
import { createApp } from "../functions/screenshot/app.ts";
import { DEFAULT_VIEWPORT, NAVIGATION_TIMEOUT_MS } from "../functions/screenshot/limits.ts";
import { createBrowser, findChrome, LAUNCH_ARGS } from "../shared/bindings/browser/mod.ts";
import { DEFAULT_FETCH_POLICY } from "../shared/net/fetch_policy.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";
import { decodePng } from "../tests/support/png.ts";

/** True when two PNGs have the same size and every pixel equal. */
function samePixels(a: Uint8Array, b: Uint8Array): boolean {
  const pa = decodePng(a);
  const pb = decodePng(b);
  if (pa.width !== pb.width || pa.height !== pb.height) return false;
  for (let y = 0; y < pa.height; y++) {
    for (let x = 0; x < pa.width; x++) {
      const u = pa.pixel(x, y);
      const v = pb.pixel(x, y);
      if (u[0] !== v[0] || u[1] !== v[1] || u[2] !== v[2] || u[3] !== v[3]) return false;
    }
  }
  return true;
}

/** A settled page that loads more after `load` (a fetch 100 ms later fills a list). */
const LATE_PAGE = `<!doctype html><html><head><meta charset="utf-8">
<link rel="stylesheet" href="/screenshot/styled.css"></head><body>
<header><h1>Late content</h1></header><main><ul id="list"></ul></main><script>
addEventListener("load", () => setTimeout(() => fetch("/screenshot/styled.css").then((r) => r.text())
  .then((css) => { for (let i = 0; i < 10; i++) { const li = document.createElement("li");
    li.textContent = "Row " + i + " (" + css.length + " bytes of CSS)"; list.appendChild(li); } }), 100));
</script></body></html>`;

/** Warm captures per side. */
const ITERATIONS = 20;
/** Pause after each capture, either side (the warm page is prepared meanwhile). */
const SPACING_MS = 500;
/** Cold starts per side (medians are reported). */
const COLD_ROUNDS = 3;
/** Captures per side before measuring. */
const WARMUP = 3;

/** What the raw baseline does for one capture: the service's work minus the service. */
async function rawCapture(browser: Browser, url: string): Promise<Uint8Array> {
  // Raw puppeteer: no guard, no page script, Chromium's networkIdle (500 ms window).
  const context = await browser.createBrowserContext();
  try {
    const page = await context.newPage();
    await page.setViewport({ ...DEFAULT_VIEWPORT });
    await page.goto(url, { waitUntil: "networkidle0", timeout: NAVIGATION_TIMEOUT_MS });
    return await page.screenshot({ type: "png" });
  } finally {
    await context.close();
  }
}

function rawLaunch(executablePath: string): Promise<Browser> {
  const sandbox = Deno.uid() === 0 ? ["--no-sandbox"] : [];
  return puppeteer.launch({
    executablePath,
    headless: true,
    args: [...LAUNCH_ARGS, ...sandbox],
    defaultViewport: null,
    handleSIGINT: false,
    handleSIGTERM: false,
    handleSIGHUP: false,
  });
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const started = performance.now();
  await fn();
  return performance.now() - started;
}

/** Runs the benchmark; needs a local Chromium (`CHROME_PATH` or auto-detected). */
export async function run(): Promise<BenchRow[]> {
  const executablePath = Deno.env.get("CHROME_PATH") || findChrome();
  if (!executablePath) throw new Error("bench/screenshot.ts needs Chromium: set CHROME_PATH");
  const fixtures = startFixtureServer({
    "/late.html": () => new Response(LATE_PAGE, { headers: { "content-type": "text/html" } }),
  });
  const pageUrl = fixtures.url("/screenshot/styled.html");
  const pages = [pageUrl, fixtures.url("/late.html")];
  const binding = createBrowser({ executablePath });
  const app = createApp(
    {
      BROWSER: binding,
      fetchPolicy: { ...DEFAULT_FETCH_POLICY, allowPrivate: true },
      limits: { cacheBytes: 0, warmPages: 1 },
    },
    { log: () => {} },
  );
  const controller = new AbortController();
  const service = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    app.fetch,
  );
  const endpoint = (url: string) =>
    `http://127.0.0.1:${service.addr.port}/screenshot?url=${encodeURIComponent(url)}`;
  const viaService = async (url = pageUrl) => {
    const res = await fetch(endpoint(url));
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`service answered ${res.status}`);
    return body;
  };

  try {
    // One throwaway launch, so both cold figures start from a warm file cache.
    await (await rawLaunch(executablePath)).close();

    // Cold: a fresh service process (its first request launches Chromium) against a raw
    // launch + capture, COLD_ROUNDS times each, interleaved; medians (one launch is noisy).
    const coldRawMs: number[] = [];
    const coldServiceMs: number[] = [];
    for (let i = 0; i < COLD_ROUNDS; i++) {
      let coldBrowser: Browser | undefined;
      coldRawMs.push(
        await timed(async () => {
          coldBrowser = await rawLaunch(executablePath);
          await rawCapture(coldBrowser, pageUrl);
        }),
      );
      await coldBrowser?.close();
      const fresh = await spawnServer(["run", "-A", "functions/screenshot/main.ts"], {
        CHROME_PATH: executablePath,
        ALLOW_PRIVATE_NETWORKS: "true",
      });
      try {
        coldServiceMs.push(
          await timed(async () => {
            const res = await fetch(
              `${fresh.origin}/screenshot?url=${encodeURIComponent(pageUrl)}`,
            );
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`fresh service answered ${res.status}`);
          }),
        );
      } finally {
        await fresh.stop();
      }
    }
    const coldRaw = percentile(coldRawMs, 50);
    const coldService = percentile(coldServiceMs, 50);
    await viaService(); // the in-process service launches its browser for the warm rounds

    // Warm: the baseline runs on the very browser the service uses.
    const browser = await binding.get();
    for (let i = 0; i < WARMUP; i++) {
      await viaService();
      await rawCapture(browser, pageUrl);
    }
    const serviceMs: number[] = [];
    const rawMs: number[] = [];
    let pairs = 0;
    let identical = 0;
    for (let i = 0; i < ITERATIONS; i++) {
      const url = pages[i % pages.length];
      let ours: Uint8Array | undefined;
      let theirs: Uint8Array | undefined;
      // Alternate who goes first, so neither side always follows the other's cleanup.
      const pair = [
        async () => {
          const started = performance.now();
          ours = await viaService(url);
          serviceMs.push(performance.now() - started);
        },
        async () => {
          const started = performance.now();
          theirs = await rawCapture(browser, url);
          rawMs.push(performance.now() - started);
        },
      ];
      if (i % 2) pair.reverse();
      for (const step of pair) {
        await step();
        // Requests spaced as real ones are: the service prepares its next page in between.
        await new Promise((r) => setTimeout(r, SPACING_MS));
      }
      pairs++;
      if (samePixels(ours!, theirs!)) identical++;
    }

    const note = `${ITERATIONS} interleaved captures per side of two 1280x800 pages (CSS, JS, ` +
      "image; a fetch 100 ms after load) on 127.0.0.1; the service waits for 250 ms without a " +
      "request after load and starts on a page prepared ahead (WARM_PAGES=1), the baseline " +
      "waits for Chromium's networkIdle (500 ms window, ~1 s in practice) on a fresh context; " +
      `captures ${SPACING_MS} ms apart; timings are noisy on a loaded machine`;
    const row = (measure: string, project: number, baseline: number, target: number) => ({
      measure,
      unit: "ms",
      project: Math.round(project * 10) / 10,
      baseline: Math.round(baseline * 10) / 10,
      ratio: project / baseline,
      target: `<= ${target.toFixed(2)}x`,
      pass: project / baseline <= target,
    });
    return [
      {
        ...row("warm screenshot, median", percentile(serviceMs, 50), percentile(rawMs, 50), 0.8),
        note,
      },
      {
        ...row("warm screenshot, p95", percentile(serviceMs, 95), percentile(rawMs, 95), 0.8),
        note,
      },
      {
        measure: "PNGs pixel-identical to networkidle0",
        unit: "%",
        project: (100 * identical) / pairs,
        baseline: null,
        ratio: identical / pairs,
        target: "= 100%",
        pass: identical === pairs,
        note: `${identical} of ${pairs} pairs equal pixel for pixel (settled pages)`,
      },
      {
        ...row("cold first screenshot (launch included)", coldService, coldRaw, 1.25),
        note: `median of ${COLD_ROUNDS}: first request of a freshly spawned service process ` +
          "(main.ts; module loading and Chromium launch included) vs puppeteer.launch + the " +
          "same capture in this process",
      },
    ];
  } finally {
    await binding.close();
    controller.abort();
    await service.finished;
    await fixtures.close();
  }
}

if (import.meta.main) {
  const rows = await run();
  console.log(formatTable(rows));
  for (const r of rows) if (r.note) console.log(`- ${r.measure}: ${r.note}`);
}
