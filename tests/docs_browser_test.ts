/**
 * `/docs` works in a browser, not only returns 200: dependency-analyzer's main.ts is started
 * as a process, real headless Chromium opens its `/docs`, and the Scalar page must render the
 * route list from `/openapi.json` (DOM text), with every request it makes going to the
 * service itself: the page needs no internet. Then the test clicks around (an operation, its
 * "Test Request" client, "Send", the sidebar) and checks again that every request of the whole
 * session went to the service, and that Scalar's cloud features (Generate MCP, Share, Deploy,
 * Ask AI) are not on the page.
 */
import assert from "node:assert/strict";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { analyzeRoute } from "../functions/dependency-analyzer/app.ts";
import { chromiumTest, testBrowser } from "./screenshot/chromium.ts";
import { startEntrypoint } from "./support/entrypoint.ts";

/** How long the page may take to render the reference. */
const RENDER_TIMEOUT_MS = 20_000;
/** Texts of Scalar features that talk to Scalar's cloud; none may be on the page. */
const CLOUD_FEATURES = [
  "Generate MCP",
  "Connect MCP",
  "Share",
  "Deploy",
  "Ask AI",
  "Developer Tools",
];

/** Clicks the first visible element whose own text is `text`; false when there is none. */
async function clickText(page: Page, text: string): Promise<boolean> {
  const handle = await page.evaluateHandle((wanted: string) => {
    const all = [...document.querySelectorAll<HTMLElement>("button, a, [role=button], li, span")];
    return all.find((el) => el.innerText?.trim() === wanted && el.offsetParent !== null) ?? null;
  }, text);
  const element = handle.asElement() as ElementHandle<Element> | null;
  if (!element) return false;
  await element.click();
  return true;
}

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
      // Every request of the session is counted. Calls of the API itself (the client's "Send")
      // are answered here, so that the service fetches nothing off this machine.
      await page.setRequestInterception(true);
      page.on("request", (req) => {
        requested.push(req.url());
        if (new URL(req.url()).pathname === "/analyze") {
          req.respond({ status: 200, contentType: "application/json", body: '{"stub":true}' });
        } else req.continue();
      });
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
      for (const path of ["/docs", "/docs/scalar.js", "/openapi.json", "/docs/favicon.svg"]) {
        assert.ok(paths.includes(path), `${path} was loaded`);
      }
      for (const feature of CLOUD_FEATURES) {
        assert.ok(!text.includes(feature), `"${feature}" is not on the page`);
      }

      // Click around: the operation, its client, a request, the sidebar.
      const before = requested.length;
      const clicked: string[] = [];
      for (const target of [summary, "Test Request", "Send", "Root information document"]) {
        if (await clickText(page, target)) clicked.push(target);
        await new Promise((r) => setTimeout(r, 750));
      }
      await page.keyboard.press("Escape");
      await page.waitForNetworkIdle({ idleTime: 500, timeout: RENDER_TIMEOUT_MS }).catch(() => {});
      assert.ok(clicked.includes("Test Request"), `clicked: ${clicked.join(", ")}`);
      const after = await page.evaluate(() => document.body.innerText);
      for (const feature of CLOUD_FEATURES) {
        assert.ok(!after.includes(feature), `"${feature}" is not in the client either`);
      }
      for (const url of requested.filter((u) => !/^(data|blob):/.test(u))) {
        assert.equal(new URL(url).origin, service.origin, `request to ${url}`);
      }
      assert.ok(requested.length > before, "the client's Send made a request, and it was counted");
    } finally {
      await binding.close();
      await service.stop("SIGTERM");
    }
  },
  { sanitizeOps: false, sanitizeResources: false },
);
