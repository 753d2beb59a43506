/**
 * `/summary` on pages of 150,000 repeated elements: linear work, answered within its bound
 * (the reader's 3 s for parse and read; a 5 MB page may pass it on a loaded machine, and then
 * the answer is its 502).
 */
import { createApp } from "../../functions/ai-summary/app.ts";
import { extractiveAi } from "../../shared/bindings/ai/mod.ts";
import { repeatedElementsTests } from "../support/parse_bounds.ts";

repeatedElementsTests(createApp, "/summary", [
  '<meta name="author" content="a">',
  "<p>a</p>",
  '<div class="x"></div>',
  '<img src="/a.png">',
], { bindings: { AI: extractiveAi() }, overBound: /^Page too complex to read: took over \d+ ms$/ });
