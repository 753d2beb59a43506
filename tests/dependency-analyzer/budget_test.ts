/**
 * The time budget of a page's parse and analysis (page.ts `analyzePage`, ANALYSIS_BUDGET_MS):
 * past it the request ends with 502 PARSE_ERROR naming the bound, and `GET /` is answered
 * meanwhile; a slow rule set is stopped at the first check past the budget.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/dependency-analyzer/app.ts";
import { compileTechRules } from "../../functions/dependency-analyzer/tech_rules.ts";
import { detectTechnologies } from "../../functions/dependency-analyzer/tech_detect.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { cooperative } from "../../shared/contract/cooperative.ts";
import { overBudgetTest, repeatedPage } from "../support/parse_bounds.ts";
import { pageSignals } from "./signals.ts";

overBudgetTest(createApp, "/analyze", {
  label: "150,000 scripts",
  bindings: (ms) => ({ analysisBudgetMs: ms }),
  page: repeatedPage('<script src="/a.js?v=1"></script>', 150_000),
  message: (ms) => new RegExp(`^Page took longer than ${ms} ms to (parse|analyze)$`),
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
