/**
 * `/metadata` parses within the shared limits like `/analyze` and `/inspect`: a deeply nested
 * page was read by an unbounded parse (a 440 KB page blocked the instance ~0.7 s and then
 * answered "Maximum call stack size exceeded"; 5 MB, the default cap, ~20 s).
 */
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { parseBoundsTests, repeatedElementsTests } from "../support/parse_bounds.ts";

parseBoundsTests(createApp, "/metadata");
repeatedElementsTests(createApp, "/metadata", [
  '<meta name="author" content="a">',
  '<link rel="icon" href="/a.png">',
  '<link rel="alternate" hreflang="de" href="/de">',
  '<script type="application/ld+json"></script>',
]);
