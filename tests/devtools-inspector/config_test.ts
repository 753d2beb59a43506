/** devtools-inspector's bindings from the environment (config.ts). */
import assert from "node:assert/strict";
import { bindingsFromEnv } from "../../functions/devtools-inspector/config.ts";
import { Env } from "../../shared/contract/config.ts";

Deno.test("bindingsFromEnv: ANALYSIS_BUDGET_MS is the page budget (default 10 s), checked", () => {
  assert.equal(bindingsFromEnv(new Env({})).analysisBudgetMs, 10_000);
  assert.equal(bindingsFromEnv(new Env({ ANALYSIS_BUDGET_MS: "2500" })).analysisBudgetMs, 2_500);
  for (const bad of ["abc", "50", "999999"]) {
    assert.throws(
      () => bindingsFromEnv(new Env({ ANALYSIS_BUDGET_MS: bad })),
      /ANALYSIS_BUDGET_MS/,
      bad,
    );
  }
});
