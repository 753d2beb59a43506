/**
 * The reader's skipping parser (functions/ai-summary/skipping_parser.ts) against stock parse5
 * on every real page of htmlparser-benchmark, whole and in the 16 KiB chunks browser_tree.ts
 * writes: the same tokens (a script's or style's text joined), at the same locations, with the
 * same parse errors, and the same tree; and `/read`'s tree (browser_tree.ts: this parser,
 * leaner elements) against stock parse5's with its htmlparser2 adapter: the same nodes, names,
 * namespaces and attributes.
 */
import assert from "node:assert/strict";
import { Parser } from "parse5";
import { skippingParser } from "../functions/ai-summary/skipping_parser.ts";
import { parse5Tokens } from "../tests/support/parse5_tokens.ts";
import { adapter } from "parse5-htmlparser2-tree-adapter";
import type { Document } from "domhandler";
import { parseBrowserTree } from "../functions/ai-summary/browser_tree.ts";
import { domLines } from "../tests/support/dom_lines.ts";
import { htmlparserBenchmarkPages } from "./harness.ts";

Deno.test("the skipping parser gives stock parse5's tokens and tree on every htmlparser-benchmark page", () => {
  let pages = 0;
  for (const { name, html } of htmlparserBenchmarkPages()) {
    for (const chunk of [Infinity, 16 * 1024]) {
      const skipping = parse5Tokens(html, (o) => skippingParser(o), chunk);
      const stock = parse5Tokens(html, (o) => new Parser(o), chunk);
      assert.equal(skipping.length, stock.length, `${name} in chunks of ${chunk}`);
      skipping.forEach((e, i) => assert.equal(e, stock[i], `${name}, token ${i}`));
    }
    pages++;
  }
  assert.ok(pages > 200, `only ${pages} pages`);
});

Deno.test("/read's tree equals stock parse5's with its adapter on every htmlparser-benchmark page", async () => {
  let pages = 0;
  for (const { name, html } of htmlparserBenchmarkPages()) {
    const stock = new Parser({ treeAdapter: adapter });
    stock.tokenizer.write(html, true);
    const expected = domLines(stock.document as unknown as Document);
    const limits = { maxDepth: 100_000, maxNodes: 10_000_000, maxMs: 600_000 };
    const actual = domLines(await parseBrowserTree(html, limits));
    assert.equal(actual.length, expected.length, name);
    actual.forEach((line, i) => assert.equal(line, expected[i], `${name}, node ${i}`));
    pages++;
  }
  assert.ok(pages > 200, `only ${pages} pages`);
});
