/**
 * The skipping tokenizer (shared/net/skipping_tokenizer.ts) against htmlparser2's own on every
 * real page of htmlparser-benchmark, whole and in the 16 KiB chunks streamPage writes: the
 * same events, in the same order, at the same offsets.
 */
import assert from "node:assert/strict";
import { fileURLToPath } from "node:url";
import { Tokenizer } from "htmlparser2";
import { SkippingTokenizer } from "../shared/net/skipping_tokenizer.ts";
import { parserEvents } from "../tests/support/parser_events.ts";

Deno.test("the skipping tokenizer emits the stock events on every htmlparser-benchmark page", () => {
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  let pages = 0;
  for (const entry of Deno.readDirSync(dir)) {
    const html = Deno.readTextFileSync(`${dir}/${entry.name}`);
    for (const chunk of [Infinity, 16 * 1024]) {
      const skipping = parserEvents(html, SkippingTokenizer, chunk);
      const stock = parserEvents(html, Tokenizer, chunk);
      assert.equal(skipping.length, stock.length, `${entry.name} in chunks of ${chunk}`);
      skipping.forEach((e, i) => assert.equal(e, stock[i], `${entry.name}, event ${i}`));
    }
    pages++;
  }
  assert.ok(pages > 200, `only ${pages} pages`);
});
