/**
 * `/summary` reads a page from the lean parser's tree, shaped (functions/ai-summary/tree.ts);
 * `/read` from parse5's browser tree (browser_tree.ts). On every real page of
 * htmlparser-benchmark the reader must find the same title, and the same text on all but a
 * few pages, where the two texts may differ by a line (token F1 of at least 0.95).
 */
import assert from "node:assert/strict";
import { readPage, readTree } from "../functions/ai-summary/readable.ts";
import { parseBrowserTree } from "../functions/ai-summary/browser_tree.ts";
import { readerYield } from "../functions/ai-summary/tree.ts";
import { corpus, tokenF1, tokens } from "./reader.ts";

Deno.test("the /summary reader's text from the lean tree is the browser tree's on the corpus", async () => {
  const pages = corpus();
  const differing: string[] = [];
  for (const page of pages) {
    const lean = await readPage(page.html);
    const yieldSoon = readerYield(60_000);
    const browser = await readTree(
      () => parseBrowserTree(page.html, undefined, yieldSoon),
      yieldSoon,
    );
    assert.equal(lean.title, browser.title, page.name);
    if (lean.text === browser.text) continue;
    const f1 = tokenF1(tokens(lean.text), tokens(browser.text));
    differing.push(`${page.name}: F1 ${f1.toFixed(3)}`);
    assert.ok(f1 >= 0.95, `${page.name}: token F1 ${f1.toFixed(3)} between the two texts`);
  }
  assert.ok(pages.length > 50, `only ${pages.length} pages`);
  assert.ok(differing.length <= pages.length / 100, `texts differ on:\n${differing.join("\n")}`);
});
