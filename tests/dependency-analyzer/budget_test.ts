/**
 * The time budget of a page's parse and analysis (page.ts `analyzePage`, ANALYSIS_BUDGET_MS):
 * past it the request ends with 502 PARSE_ERROR naming the bound, and `GET /` is answered
 * meanwhile; a slow rule set is stopped at the first check past the budget.
 */
import assert from "node:assert/strict";
import { latenciesDuring } from "../support/loop_latency.ts";
import { createApp } from "../../functions/dependency-analyzer/app.ts";
import { compileTechRules } from "../../functions/dependency-analyzer/tech_rules.ts";
import { detectTechnologies } from "../../functions/dependency-analyzer/tech_detect.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { cooperative } from "../../shared/contract/cooperative.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { repeatedPage } from "../support/parse_bounds.ts";
import { openPolicy } from "../support/policy.ts";
import { pageSignals } from "./signals.ts";

Deno.test("/analyze past its budget: 502 PARSE_ERROR naming it, GET / answered meanwhile", async () => {
  const page = new TextEncoder().encode(repeatedPage('<script src="/a.js?v=1"></script>', 150_000));
  const fixtures = startFixtureServer({
    "/big": () => new Response(page, { headers: { "content-type": "text/html" } }),
    "/small": () =>
      new Response("<html><title>x</title></html>", { headers: { "content-type": "text/html" } }),
  });
  const policy = openPolicy({ timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 });
  const app = createApp({ fetchPolicy: policy, analysisBudgetMs: 1_000 }, { log: () => {} });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  try {
    // Warm: the rules load on the first analysis, outside the budget.
    await (await fetch(`${base}/analyze?url=${encodeURIComponent(fixtures.url("/small"))}`)).text();
    const { result: [status, body], latencies, median, workMs, shown } = await latenciesDuring(
      base,
      () =>
        fetch(`${base}/analyze?url=${encodeURIComponent(fixtures.url("/big"))}`)
          .then(async (res) => [res.status, await res.json()] as const),
    );
    assert.equal(status, 502);
    assert.equal(body.code, "PARSE_ERROR");
    assert.match(body.error, /^Page took longer than 1000 ms to (parse|analyze)$/);
    assert.ok(latencies.length >= 3, shown);
    // A small part of the hostile request's own time in this run.
    assert.ok(median < workMs / 5, shown);
  } finally {
    await server.shutdown();
    await fixtures.close();
  }
});

Deno.test("a rule set that runs slow is stopped at the first check past the budget", async () => {
  // Each pattern backtracks for a while on the text (bounded, as every rule is), and there are
  // many: the whole set takes far longer than the budget.
  const raw = Object.fromEntries(
    Array.from({ length: 100 }, (_, i) => [`Slow ${i}`, { html: `slow(?:x|x|x){1,7}${i}y` }]),
  );
  const rules = compileTechRules(raw, {});
  const signals = pageSignals({ html: ("slow" + "x".repeat(12)).repeat(40) });
  let started = performance.now();
  await detectTechnologies(rules, signals, cooperative());
  const whole = performance.now() - started;
  const budgetMs = whole / 10;
  started = performance.now();
  const over = new ApiError("PARSE_ERROR", `Page took longer than ${budgetMs} ms to analyze`);
  await assert.rejects(
    detectTechnologies(
      rules,
      signals,
      cooperative(25, { endsAt: started + budgetMs, over: () => over }),
    ),
    (e) => e === over,
  );
  const stopped = performance.now() - started;
  assert.ok(stopped < whole / 2, `stopped after ${stopped.toFixed(0)} ms of ${whole.toFixed(0)}`);
});
