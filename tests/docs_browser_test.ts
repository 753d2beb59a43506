/**
 * `/docs` works in a browser, not only returns 200: dependency-analyzer's main.ts is started
 * as a process, real headless Chromium opens its `/docs`, and Swagger UI must render the route
 * list from `/openapi.json` (DOM text), with every request it makes going to the service
 * itself: the page needs no internet. Then the test opens `/analyze`, reads its parameter and
 * error responses, tries it ("Try it out", a URL, "Execute") and checks again that every request
 * of the whole session went to the service (no validator badge, no fonts, no CDN).
 */
import assert from "node:assert/strict";
import type { Browser, ElementHandle, Page } from "puppeteer-core";
import { OPERATIONS } from "../functions/dependency-analyzer/operations.ts";
import { DOCS_ASSETS, FAVICON_PATH } from "../shared/contract/docs.ts";
import { chromiumTest, testBrowser } from "./screenshot/chromium.ts";
import { startEntrypoint } from "./support/entrypoint.ts";

/** How long the page may take to render the reference. */
const RENDER_TIMEOUT_MS = 20_000;

/** Clicks the first visible element whose own text is `text`; false when there is none. */
async function clickText(page: Page, text: string): Promise<boolean> {
  const handle = await page.evaluateHandle((wanted: string) => {
    const all = [...document.querySelectorAll<HTMLElement>("button, a, [role=button], span")];
    return all.find((el) => el.innerText?.trim() === wanted && el.offsetParent !== null) ?? null;
  }, text);
  const element = handle.asElement() as ElementHandle<Element> | null;
  if (!element) return false;
  await element.click();
  return true;
}

/** Waits until the page's text holds every one of `texts`. */
async function waitForTexts(page: Page, texts: string[]): Promise<string> {
  await page.waitForFunction(
    (wanted: string[]) => wanted.every((text) => document.body.innerText.includes(text)),
    { timeout: RENDER_TIMEOUT_MS },
    texts,
  );
  return await page.evaluate(() => document.body.innerText);
}

chromiumTest(
  "/docs renders the route list in headless Chromium, offline, and tries a route",
  async (_t, chromePath) => {
    const service = await startEntrypoint("dependency-analyzer");
    const binding = testBrowser(chromePath);
    try {
      const browser: Browser = await binding.get();
      const page = await browser.newPage();
      await page.setViewport({ width: 1280, height: 900 });
      const requested: string[] = [];
      const pageErrors: string[] = [];
      const tried: string[] = [];
      // Every request of the session is counted. Calls of the API itself ("Execute") are
      // answered here, so that the service fetches nothing off this machine.
      await page.setRequestInterception(true);
      page.on("request", (req) => {
        requested.push(req.url());
        if (new URL(req.url()).pathname === "/analyze") {
          tried.push(req.url());
          req.respond({ status: 200, contentType: "application/json", body: '{"stub":true}' });
        } else req.continue();
      });
      page.on("pageerror", (err) => pageErrors.push(String(err)));

      const res = await page.goto(`${service.origin}/docs`, { waitUntil: "load" });
      assert.equal(res?.status(), 200);
      const summary = OPERATIONS.analyzePage.summary;
      const text = await waitForTexts(page, ["/analyze", summary]);
      for (const expected of ["dependency-analyzer", "OAS 3.1", "Root information document"]) {
        assert.ok(text.includes(expected), `"${expected}" in the rendered page`);
      }

      // The operation: its parameter and its error responses.
      await page.click('.opblock-summary-path[data-path="/analyze"]');
      await waitForTexts(page, ["Parameters", "url", "400", "502", "Try it out"]);

      // Try it: a URL, Execute, and the (stubbed) answer shown.
      assert.ok(await clickText(page, "Try it out"), "Try it out");
      const input = await page.waitForSelector('input[placeholder="url"]', {
        timeout: RENDER_TIMEOUT_MS,
      });
      // Swagger UI fills in the schema's example; the typed URL replaces it.
      await input!.click({ count: 3 });
      await input!.type("https://example.org/page");
      assert.ok(await clickText(page, "Execute"), "Execute");
      await waitForTexts(page, ["Response body", "stub"]);
      assert.equal(tried.length, 1, `one request to /analyze: ${tried.join(", ")}`);
      assert.equal(new URL(tried[0]).searchParams.get("url"), "https://example.org/page");
      assert.deepEqual(pageErrors, []);

      // Everything came from the service itself: the page, its files, the document.
      await page.waitForNetworkIdle({ idleTime: 500, timeout: RENDER_TIMEOUT_MS }).catch(() => {});
      const paths = requested.filter((url) => !/^(data|blob):/.test(url)).map((url) => {
        const parsed = new URL(url);
        assert.equal(parsed.origin, service.origin, `request to ${url}`);
        return parsed.pathname;
      });
      const expected = ["/docs", ...DOCS_ASSETS.map((n) => `/docs/${n}`), "/openapi.json"];
      for (const path of [...expected, FAVICON_PATH]) {
        assert.ok(paths.includes(path), `${path} was loaded`);
      }
    } finally {
      await binding.close();
      await service.stop("SIGTERM");
    }
  },
  { sanitizeOps: false, sanitizeResources: false },
);
