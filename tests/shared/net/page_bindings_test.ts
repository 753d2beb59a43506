/** The page routes' bindings from the environment (shared/net/page_bindings.ts). */
import assert from "node:assert/strict";
import { Env } from "../../../shared/contract/config.ts";
import { pageBindingsFromEnv } from "../../../shared/net/page_bindings.ts";
import * as analyzer from "../../../functions/dependency-analyzer/config.ts";
import * as inspector from "../../../functions/devtools-inspector/config.ts";
import * as metadata from "../../../functions/metadata-extractor/config.ts";

Deno.test("pageBindingsFromEnv: ANALYSIS_BUDGET_MS is the page budget (default 10 s), checked", () => {
  assert.equal(pageBindingsFromEnv(new Env({})).analysisBudgetMs, 10_000);
  assert.equal(
    pageBindingsFromEnv(new Env({ ANALYSIS_BUDGET_MS: "2500" })).analysisBudgetMs,
    2_500,
  );
  for (const bad of ["abc", "50", "999999"]) {
    assert.throws(
      () => pageBindingsFromEnv(new Env({ ANALYSIS_BUDGET_MS: bad })),
      /ANALYSIS_BUDGET_MS/,
      bad,
    );
  }
});

Deno.test("each page route's bindingsFromEnv reads the budget, the fetch policy and admission", () => {
  for (const { bindingsFromEnv } of [analyzer, inspector, metadata]) {
    assert.equal(bindingsFromEnv(new Env({})).analysisBudgetMs, 10_000);
    const b = bindingsFromEnv(
      new Env({ ANALYSIS_BUDGET_MS: "2500", ALLOW_PRIVATE_NETWORKS: "true" }),
    );
    assert.equal(b.analysisBudgetMs, 2_500);
    assert.equal(b.fetchPolicy.allowPrivate, true);
    assert.ok(b.admission);
    assert.throws(
      () => bindingsFromEnv(new Env({ ANALYSIS_BUDGET_MS: "50" })),
      /ANALYSIS_BUDGET_MS/,
    );
  }
});
