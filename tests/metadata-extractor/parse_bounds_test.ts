/**
 * `/metadata` parses within the shared limits like `/analyze` and `/inspect`: a deeply nested
 * page was read by an unbounded parse (a 440 KB page blocked the instance ~0.7 s and then
 * answered "Maximum call stack size exceeded"; 5 MB, the default cap, ~20 s).
 */
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { parseBoundsTests, repeatedElementsTests, REPEATS } from "../support/parse_bounds.ts";

parseBoundsTests(createApp, "/metadata");

/** The budget the repeated pages run under (the default of ANALYSIS_BUDGET_MS). */
const BUDGET_MS = 10_000;

// Meta tags, icons, alternates and JSON-LD blocks, and one JSON-LD graph of 150,000 nodes.
repeatedElementsTests(createApp, "/metadata", [
  '<meta name="author" content="a">',
  '<meta property="og:image" content="/a.png">',
  '<link rel="icon" href="/a.png">',
  '<link rel="alternate" hreflang="de" href="/de">',
  '<script type="application/ld+json"></script>',
  {
    label: "a JSON-LD @graph of 150,000 nodes",
    html: `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[${
      Array(REPEATS).fill('{"@type":"Person","name":"a"}').join(",")
    }]}</script>`,
  },
], { bindings: { analysisBudgetMs: BUDGET_MS }, budgetMs: BUDGET_MS, maxRatio: 10 });
