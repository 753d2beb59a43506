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
import { startEntrypoint } from "./support/entrypoint.ts";

/** How long the page may take to render the reference. */
const RENDER_TIMEOUT_MS = 20_000;

chromiumTest(
  "/docs renders the route list in headless Chromium, offline",
  async (_t, chromePath) => {
    const service = await startEntrypoint("dependency-analyzer");
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
      await service.stop("SIGTERM");
    }
  },
  { sanitizeOps: false, sanitizeResources: false },
);
