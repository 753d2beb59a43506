/**
 * The time budget of `/inspect` (inspect.ts `inspectResponse`, ANALYSIS_BUDGET_MS): the scan and
 * the audit share it, past it the request ends with 502 PARSE_ERROR naming the bound while
 * `GET /` is answered, the wait for the probes is not counted, and the audit stops at the
 * first yield past the budget.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { securityAudit } from "../../functions/devtools-inspector/audit.ts";
import { inspectResponse, type Probes } from "../../functions/devtools-inspector/inspect.ts";
import { scanPage } from "../../functions/devtools-inspector/page_scan.ts";
import { cooperative } from "../../shared/contract/cooperative.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { overBudgetTest, repeatedPage } from "../support/parse_bounds.ts";

overBudgetTest(createApp, "/inspect", {
  label: "150,000 third-party stylesheets",
  bindings: (ms) => ({ analysisBudgetMs: ms }),
  page: repeatedPage('<link rel="stylesheet" href="https://cdn.other.example/a.css">', 150_000),
  message: (ms) => new RegExp(`^Page took longer than ${ms} ms to (parse|inspect)$`),
});

/** An HTML response of `html` from `url`, as the safe fetch returns it. */
function htmlResponse(url: string, html: string): FetchResult {
  const body = new TextEncoder().encode(html);
  return {
    url,
    finalUrl: url,
    status: 200,
    statusText: "OK",
    headers: new Headers({ "content-type": "text/html; charset=utf-8" }),
    setCookies: [],
    httpVersion: "1.1",
    redirects: [],
    timings: { dns: null, connect: null, tls: null, ttfb: 1, download: 1, total: 2 },
    remoteAddress: null,
    contentType: "text/html",
    charset: "utf-8",
    encodedBytes: body.length,
    body,
    text: html,
  };
}

/** What the probes of an https:// page found: a 301 from http://, a preflight without CORS. */
function probesOf(url: string): Probes {
  return {
    httpRoute: {
      reached: true,
      steps: [{ url: url.replace(/^https:/, "http:"), status: 301 }, { url, status: 200 }],
    },
    preflight: { answered: true, origin: "https://x.test", status: 204, headers: new Headers() },
    tls: null,
  };
}

Deno.test("the wait for the probes does not count against the budget", async () => {
  const url = "https://shop.example/";
  const res = htmlResponse(url, "<!doctype html><title>t</title><p>hi</p>");
  const late = new Promise<Probes>((resolve) => setTimeout(() => resolve(probesOf(url)), 1_500));
  // The slow network takes five times the budget; the inspector's own work a small part of it.
  const result = await inspectResponse(res, new Date().toISOString(), late, 300);
  assert.equal(result.page?.title, "t");
  assert.ok(result.security.checks.length > 0);
});

Deno.test("the audit of a large page stops at the first yield past the budget", async () => {
  // An https:// page of many third-party stylesheets over http://: each is resolved, looked
  // up as third party and checked as mixed content.
  const url = "https://shop.example/";
  const element = '<link rel="stylesheet" href="http://cdn.other.example/a.css">';
  const page = await scanPage(repeatedPage(element, 30_000));
  const input = { finalUrl: url, headers: new Headers(), cookies: [], page, ...probesOf(url) };
  let started = performance.now();
  const whole = await securityAudit(input, undefined, cooperative());
  const wholeMs = performance.now() - started;
  assert.ok(whole.checks.some((c) => c.result === "mixed-content-active"));
  const budgetMs = wholeMs / 10;
  const over = new ApiError("PARSE_ERROR", `Page took longer than ${budgetMs} ms to inspect`);
  started = performance.now();
  await assert.rejects(
    securityAudit(
      input,
      undefined,
      cooperative(25, { endsAt: started + budgetMs, over: () => over }),
    ),
    (e) => e === over,
  );
  const stopped = performance.now() - started;
  assert.ok(
    stopped < wholeMs / 2,
    `stopped after ${stopped.toFixed(0)} of ${wholeMs.toFixed(0)} ms`,
  );
});

// A page whose one <meta> holds 150,000 policies (3.9 MB): parsed in ~0.1 s, then read and
// intersected one by one in the audit (seconds), which the budget stops.
overBudgetTest(createApp, "/inspect", {
  label: "a CSP of 150,000 policies",
  bindings: (ms) => ({ analysisBudgetMs: ms }),
  page: `<!doctype html><title>csp</title><meta http-equiv="content-security-policy" content="${
    "default-src 'self' https:,".repeat(150_000)
  }">`,
  message: (ms) => new RegExp(`^Page took longer than ${ms} ms to inspect$`),
});
