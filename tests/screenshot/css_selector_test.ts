/** `selector` and `waitFor` take CSS only, not puppeteer's own query handlers. */
import assert from "node:assert/strict";
import { isCssSelector } from "../../functions/screenshot/css_selector.ts";
import { createApp } from "../../functions/screenshot/app.ts";
import { openPolicy } from "../support/policy.ts";

/** Puppeteer's query handlers: XPath, text, ARIA, shadow-piercing. */
const PUPPETEER_ONLY = [
  "::-p-xpath(//a)",
  "a::-p-text(Sign in)",
  "div:is(::-p-aria(Submit))",
  "pierce/div",
  "xpath///a",
  "text/hello",
  'aria/Submit[role="button"]',
  "div >>> p",
  "div >>>> p",
];

Deno.test("isCssSelector: CSS selectors yes, puppeteer's own forms and garbage no", () => {
  for (const s of ["div.a > p", "#main", "a:has(> b)", "p::before", "a,b", "[data-x='1/2']"]) {
    assert.ok(isCssSelector(s), s);
  }
  for (const s of [...PUPPETEER_ONLY, "[", "a:not(", ""]) assert.ok(!isCssSelector(s), s);
});

Deno.test("selector and waitFor with a puppeteer query handler are 400 INVALID_INPUT", async () => {
  const browser = {
    mode: "launch" as const,
    get: () => Promise.reject(new Error("the browser must not be used")),
    close: () => Promise.resolve(),
  };
  const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
  for (const s of PUPPETEER_ONLY) {
    for (const param of ["selector", "waitFor"]) {
      const q = new URLSearchParams({ url: "https://example.com/", [param]: s });
      const res = await app.request(`/screenshot?${q}`);
      assert.equal(res.status, 400, `${param}=${s}`);
      const body = await res.json();
      assert.equal(body.code, "INVALID_INPUT");
      assert.match(body.error, new RegExp(`^${param} must be`));
    }
  }
});
