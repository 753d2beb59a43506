/** `/inspect`'s page scan (inspect.ts, page_scan.ts): bounded like every page parse, since the page is a stranger's. */
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { parseBoundsTests, repeatedElementsTests, REPEATS } from "../support/parse_bounds.ts";

// One cooperative pass and no DOM walks after it: GET / stays fast on a large page too.
parseBoundsTests(createApp, "/inspect");

/** The budget the repeated pages run under (the default of ANALYSIS_BUDGET_MS). */
const BUDGET_MS = 10_000;

// Meta tags, scripts, links, images and data blocks: what the scan keeps and the audit reads
// (CSP policies are intersected, third-party URLs resolved); a policy of 150,000 sources and a
// srcset of 150,000 candidates as single values; Set-Cookie and other headers repeated too.
repeatedElementsTests(createApp, "/inspect", [
  `<meta http-equiv="content-security-policy" content="default-src 'self' https:">`,
  '<meta name="generator" content="WordPress 6.1">',
  '<script src="https://cdn.other.example/a.js"></script>',
  '<link rel="stylesheet" href="https://cdn.other.example/a.css">',
  '<img srcset="/a.png 1x, https://cdn.other.example/b.png 2x">',
  '<a href="/x"></a>',
  '<script type="application/ld+json"></script>',
  {
    label: "a <meta> CSP of 150,000 sources",
    html: `<meta http-equiv="content-security-policy" content="script-src ${
      Array.from({ length: REPEATS }, (_, i) => `https://h${i}.example`).join(" ")
    }">`,
  },
], { bindings: { analysisBudgetMs: BUDGET_MS }, budgetMs: BUDGET_MS, maxRatio: 10 });
