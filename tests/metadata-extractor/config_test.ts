/** metadata-extractor's bindings from the environment (config.ts), the budget reaching the route. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { bindingsFromEnv } from "../../functions/metadata-extractor/config.ts";
import { Env } from "../../shared/contract/config.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { repeatedPage } from "../support/parse_bounds.ts";
import { openPolicy } from "../support/policy.ts";

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

Deno.test("/metadata past a configured budget: 502 PARSE_ERROR naming it", async () => {
  const page = repeatedPage('<link rel="icon" href="/a.png">', 150_000);
  const fixtures = startFixtureServer({
    "/big": () => new Response(page, { headers: { "content-type": "text/html" } }),
  });
  const policy = openPolicy({ timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 });
  const app = createApp({ fetchPolicy: policy, analysisBudgetMs: 100 }, { log: () => {} });
  try {
    const res = await app.request(`/metadata?url=${encodeURIComponent(fixtures.url("/big"))}`);
    assert.equal(res.status, 502);
    const body = await res.json();
    assert.equal(body.code, "PARSE_ERROR");
    assert.match(body.error, /^Page took longer than 100 ms to (parse|read)$/);
  } finally {
    await fixtures.close();
  }
});
