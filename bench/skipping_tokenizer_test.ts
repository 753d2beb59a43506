/**
 * The skipping tokenizer (shared/net/skipping_tokenizer.ts) against htmlparser2's own, and the
 * lean parser (shared/net/lean_parser.ts) against its stock Parser, on every real page of
 * htmlparser-benchmark, whole and in the 16 KiB chunks streamPage writes: the same events, in
 * the same order, at the same offsets.
 */
import assert from "node:assert/strict";
import { Tokenizer } from "htmlparser2";
import { SkippingTokenizer } from "../shared/net/skipping_tokenizer.ts";
import { LeanParser } from "../shared/net/lean_parser.ts";
import { parserEvents } from "../tests/support/parser_events.ts";
import { htmlparserBenchmarkPages } from "./harness.ts";

Deno.test("the skipping tokenizer emits the stock events on every htmlparser-benchmark page", () => {
  let pages = 0;
  for (const { name, html } of htmlparserBenchmarkPages()) {
    for (const chunk of [Infinity, 16 * 1024]) {
      const skipping = parserEvents(html, SkippingTokenizer, chunk);
      const stock = parserEvents(html, Tokenizer, chunk);
      assert.equal(skipping.length, stock.length, `${name} in chunks of ${chunk}`);
      skipping.forEach((e, i) => assert.equal(e, stock[i], `${name}, event ${i}`));
    }
    pages++;
  }
  assert.ok(pages > 200, `only ${pages} pages`);
});

Deno.test("the lean parser emits the stock parser's events on every htmlparser-benchmark page", () => {
  let pages = 0;
  for (const { name, html } of htmlparserBenchmarkPages()) {
    for (const chunk of [Infinity, 16 * 1024]) {
      const options = { decodeEntities: true };
      const lean = parserEvents(
        html,
        SkippingTokenizer,
        chunk,
        options,
        (handler, o) => new LeanParser(handler, o),
      );
      const stock = parserEvents(html, SkippingTokenizer, chunk, options);
      assert.equal(lean.length, stock.length, `${name} in chunks of ${chunk}`);
      lean.forEach((e, i) => assert.equal(e, stock[i], `${name}, event ${i}`));
    }
    pages++;
  }
  assert.ok(pages > 200, `only ${pages} pages`);
});
