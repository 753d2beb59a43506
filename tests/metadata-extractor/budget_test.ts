/**
 * The time budget of `/metadata` (extract.ts `extractMetadata`, ANALYSIS_BUDGET_MS): past it the
 * request ends with 502 PARSE_ERROR naming the bound, and `GET /` is answered meanwhile.
 */
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { overBudgetTest, repeatedPage } from "../support/parse_bounds.ts";

overBudgetTest(createApp, "/metadata", {
  label: "150,000 icons",
  bindings: (ms) => ({ analysisBudgetMs: ms }),
  page: repeatedPage('<link rel="icon" href="/a.png">', 150_000),
  message: (ms) => new RegExp(`^Page took longer than ${ms} ms to (parse|read)$`),
});
