/**
 * The reader's skipping parser (functions/ai-summary/skipping_parser.ts) against stock parse5
 * on every real page of htmlparser-benchmark, whole and in the 16 KiB chunks tree.ts writes:
 * the same tokens, at the same locations, with the same parse errors, and the same tree.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Parser } from "parse5";
import { skippingParser } from "../functions/ai-summary/skipping_parser.ts";
import { parse5Tokens } from "../tests/support/parse5_tokens.ts";

Deno.test("the skipping parser gives stock parse5's tokens and tree on every htmlparser-benchmark page", () => {
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  let pages = 0;
  for (const entry of Deno.readDirSync(dir)) {
    const html = Deno.readTextFileSync(`${dir}/${entry.name}`);
    for (const chunk of [Infinity, 16 * 1024]) {
      const skipping = parse5Tokens(html, (o) => skippingParser(o), chunk);
      const stock = parse5Tokens(html, (o) => new Parser(o), chunk);
      assert.equal(skipping.length, stock.length, `${entry.name} in chunks of ${chunk}`);
      skipping.forEach((e, i) => assert.equal(e, stock[i], `${entry.name}, token ${i}`));
    }
    pages++;
  }
  assert.ok(pages > 200, `only ${pages} pages`);
});
