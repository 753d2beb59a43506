/**
 * `/docs` works in a browser, not only returns 200: dependency-analyzer's main.ts is started
 * as a process, real headless Chromium opens its `/docs`, and the Scalar page must render the
 * route list from `/openapi.json` (DOM text), with every request it makes going to the
 * service itself: the page needs no internet.
 */
import assert from "node:assert/strict";
import type { Browser } from "puppeteer-core";
import { analyzeRoute } from "../functions/dependency-analyzer/app.ts";
import { chromiumTest, testBrowser } from "./screenshot/chromium.ts";

const ROOT_DIR = new URL("../", import.meta.url);

/** How long the page may take to render the reference. */
const RENDER_TIMEOUT_MS = 20_000;

/** A started experiment process. */
interface Service {
  origin: string;
  stop(): Promise<void>;
}

/** Starts `functions/<slug>/main.ts` on a free loopback port; resolves once it listens. */
async function startService(slug: string): Promise<Service> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `functions/${slug}/main.ts`],
    cwd: ROOT_DIR,
    env: { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1" },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const stop = async () => {
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    await child.status;
  };
  // Deno.serve prints "Listening on http://127.0.0.1:<port>/" to stderr; then the request log.
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<null>((resolve) => timer = setTimeout(() => resolve(null), 30_000));
  try {
    while (true) {
      const next = await Promise.race([lines.read(), timeout]);
      if (next === null || next.done) break;
      seen += next.value;
      const match = seen.match(/Listening on (http:\/\/127\.0\.0\.1:\d+)/);
      if (match) {
        // Keep draining stderr (the request log) so the child never blocks on a full pipe.
        (async () => {
          while (!(await lines.read()).done) { /* discard */ }
        })().catch(() => {});
        return { origin: match[1], stop };
      }
    }
  } catch (err) {
    await stop();
    throw err;
  } finally {
    clearTimeout(timer);
  }
  await stop();
  throw new Error(`${slug} did not start:\n${seen}`);
}

chromiumTest(
  "/docs renders the route list in headless Chromium, offline",
  async (_t, chromePath) => {
    const service = await startService("dependency-analyzer");
    const binding = testBrowser(chromePath);
    try {
      const browser: Browser = await binding.get();
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const requested: string[] = [];
      const pageErrors: string[] = [];
      page.on("request", (req) => requested.push(req.url()));
      page.on("pageerror", (err) => pageErrors.push(String(err)));

      const res = await page.goto(`${service.origin}/docs`, { waitUntil: "load" });
      assert.equal(res?.status(), 200);
      const summary = analyzeRoute.summary!;
      await page.waitForFunction(
        (texts: string[]) => texts.every((text) => document.body.innerText.includes(text)),
        { timeout: RENDER_TIMEOUT_MS },
        ["/analyze", summary],
      );
      const text = await page.evaluate(() => document.body.innerText);

      // The route list: both operations, with the query parameter and the error codes.
      for (
        const expected of [
          "dependency-analyzer",
          "OpenAPI 3.1",
          "Root information document",
          summary,
          "/analyze",
          "url",
          "400",
          "INVALID_URL",
          "502",
          "FETCH_ERROR",
        ]
      ) {
        assert.ok(text.includes(expected), `"${expected}" in the rendered page`);
      }
      assert.deepEqual(pageErrors, []);

      // Everything came from the service itself: the bundle, the document, nothing else.
      const paths = requested.filter((url) => !/^(data|blob):/.test(url)).map((url) => {
        const parsed = new URL(url);
        assert.equal(parsed.origin, service.origin, `request to ${url}`);
        return parsed.pathname;
      });
      for (const path of ["/docs", "/docs/scalar.js", "/openapi.json"]) {
        assert.ok(paths.includes(path), `${path} was loaded`);
      }
    } finally {
      await binding.close();
      await service.stop();
    }
  },
  { sanitizeOps: false, sanitizeResources: false },
);
