import assert from "node:assert/strict";
import { Tokenizer } from "htmlparser2";
import { SkippingTokenizer } from "../../../shared/net/skipping_tokenizer.ts";
import { parserEvents } from "../../support/parser_events.ts";
import { randomMarkup } from "../../support/random_markup.ts";

/** Markup pieces that exercise every state the skipping tokenizer touches and its neighbours. */
const PIECES = [
  "text ",
  "<",
  ">",
  "&",
  "&amp;",
  "&amp",
  "&#x41;",
  "&#65",
  "&notit;",
  "&copy=",
  "<p>",
  "</p>",
  '<a href="x&amp;y">',
  "<a href='q&lt;'>",
  "<a title=un&amp;q>",
  '<img alt="">',
  "<br/>",
  "<script>",
  "</script>",
  "<style>",
  "</style>",
  "<title>",
  "</title>",
  "<textarea>",
  "<!--",
  "-->",
  "<![CDATA[",
  "]]>",
  "<!doctype html>",
  "<?xml ?>",
  "</",
  '"',
  "'",
  "=",
  " ",
  "\n",
  "é",
  "😀",
  "\0",
  "<plaintext>",
  "<DiV\fclass\u000b=x data-Y = 'z'>",
  "<a\u00a0b=1 c\rd>",
  "</di v>",
  "</SPAN\t>",
  "<x y z=1/>",
  "<svg viewBox=0><path d=M/></svg>",
  "\t",
  "\f",
  "\u000b",
  "\u00a0",
  "/",
];

/** A deterministic random page of PIECES (a failing seed reproduces). */
const randomPage = (seed: number, length: number) => randomMarkup(PIECES, seed, length);

Deno.test("the skipping tokenizer emits the stock tokenizer's events, at every chunking", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const html = randomPage(seed, 60);
    for (const chunk of [Infinity, 1, 2, 3, 7, 16]) {
      assert.deepEqual(
        parserEvents(html, SkippingTokenizer, chunk),
        parserEvents(html, Tokenizer, chunk),
        `seed ${seed}, chunks of ${chunk}: ${JSON.stringify(html)}`,
      );
    }
  }
});

Deno.test("the skipping tokenizer agrees without entity decoding and in XML mode", () => {
  for (let seed = 1; seed <= 100; seed++) {
    const html = randomPage(seed, 40);
    for (const options of [{ decodeEntities: false }, { decodeEntities: true, xmlMode: true }]) {
      assert.deepEqual(
        parserEvents(html, SkippingTokenizer, 5, options),
        parserEvents(html, Tokenizer, 5, options),
      );
    }
  }
});

Deno.test("text and attribute values keep their entities decoded across a skipped run", () => {
  const events = parserEvents(
    '<p title="a long value &amp; more">some text &lt; and more text</p>',
    SkippingTokenizer,
  );
  assert.ok(events.some((e) => e.includes('"title","a long value & more"')), events.join("\n"));
  assert.equal(
    events.filter((e) => e.startsWith("ontext")).map((e) =>
      JSON.parse(e.split(" ").slice(2).join(" "))[0]
    ).join(""),
    "some text < and more text",
  );
});
