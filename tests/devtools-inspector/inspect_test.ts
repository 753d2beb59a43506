/** `/inspect`'s page scan (inspect.ts, page_scan.ts): bounded like every page parse, since the page is a stranger's. */
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { parseBoundsTests, repeatedElementsTests } from "../support/parse_bounds.ts";

// One cooperative pass and no DOM walks after it: GET / stays fast on a large page too.
parseBoundsTests(createApp, "/inspect");
repeatedElementsTests(createApp, "/inspect", [
  '<meta http-equiv="content-security-policy" content="a">',
  '<script src="/a.js"></script>',
  '<link rel="stylesheet" href="/a.css">',
  '<img src="/a.png">',
]);
