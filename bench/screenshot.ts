/**
 * Screenshot latency: `GET /screenshot` through the running service (HTTP, page slot, policy
 * proxy, incognito context, PNG over the wire) against raw puppeteer-core doing the same
 * capture (context, page, 1280x800 viewport, goto until network idle, PNG) on the same
 * browser, interleaved in the same run. Plus the cold first screenshot, browser launch
 * included, against a raw launch + capture. The page is a fixture with a stylesheet, a script
 * and an image, served on 127.0.0.1.
 */
import puppeteer, { type Browser } from "puppeteer-core";
import { type BenchRow, formatTable, percentile } from "./harness.ts";
import { createApp } from "../functions/screenshot/app.ts";
import { DEFAULT_VIEWPORT, NAVIGATION_TIMEOUT_MS } from "../functions/screenshot/limits.ts";
import { createBrowser, findChrome, LAUNCH_ARGS } from "../shared/bindings/browser/mod.ts";
import { DEFAULT_FETCH_POLICY } from "../shared/net/safe_fetch.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";

/** Warm captures per side. */
const ITERATIONS = 20;
/** Captures per side before measuring. */
const WARMUP = 3;

/** What the raw baseline does for one capture: the service's work minus the service. */
async function rawCapture(browser: Browser, url: string): Promise<Uint8Array> {
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
  const fixtures = startFixtureServer();
  const pageUrl = fixtures.url("/screenshot/styled.html");
  const binding = createBrowser({ executablePath });
  const app = createApp(
    { browser: binding, fetchPolicy: { ...DEFAULT_FETCH_POLICY, allowPrivate: true } },
    { log: () => {} },
  );
  const controller = new AbortController();
  const service = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    app.fetch,
  );
  const endpoint = `http://127.0.0.1:${service.addr.port}/screenshot?url=${
    encodeURIComponent(pageUrl)
  }`;
  const viaService = async () => {
    const res = await fetch(endpoint);
    const body = new Uint8Array(await res.arrayBuffer());
    if (res.status !== 200) throw new Error(`service answered ${res.status}`);
    return body;
  };

  try {
    // One throwaway launch, so both cold figures start from a warm file cache.
    await (await rawLaunch(executablePath)).close();

    let coldBrowser: Browser | undefined;
    const coldRaw = await timed(async () => {
      coldBrowser = await rawLaunch(executablePath);
      await rawCapture(coldBrowser, pageUrl);
    });
    await coldBrowser?.close();
    const coldService = await timed(viaService); // the service launches on its first request

    // Warm: the baseline runs on the very browser the service uses.
    const browser = await binding.get();
    for (let i = 0; i < WARMUP; i++) {
      await viaService();
      await rawCapture(browser, pageUrl);
    }
    const serviceMs: number[] = [];
    const rawMs: number[] = [];
    for (let i = 0; i < ITERATIONS; i++) {
      // Alternate who goes first, so neither side always follows the other's cleanup.
      const pair = [
        async () => serviceMs.push(await timed(viaService)),
        async () => rawMs.push(await timed(() => rawCapture(browser, pageUrl))),
      ];
      if (i % 2) pair.reverse();
      for (const step of pair) await step();
    }

    const note = `${ITERATIONS} interleaved captures per side of a 1280x800 page (CSS, JS, ` +
      "image) on 127.0.0.1; both wait for Chromium's networkIdle event (~1 s even on a quiet " +
      "page), which dominates";
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
        ...row("warm screenshot, median", percentile(serviceMs, 50), percentile(rawMs, 50), 1.15),
        note,
      },
      {
        ...row("warm screenshot, p95", percentile(serviceMs, 95), percentile(rawMs, 95), 1.15),
        note,
      },
      {
        ...row("cold first screenshot (launch included)", coldService, coldRaw, 1.25),
        note: "first request of a fresh service vs puppeteer.launch + the same capture",
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
