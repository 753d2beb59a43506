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
  // Tags read in one step (readTag) and where they are handed back to the stock states.
  "<SCRIPT>",
  "<Style>",
  "<scripts>",
  "<xmp>",
  "</xmp>",
  "<iframe>",
  "</iframe>",
  "<noframes>",
  "<titles>",
  "<b =c>",
  "<i / b>",
  "<br / >",
  "<a b=&amp;>",
  "<a b='c'd>",
  '<a b = "c" >',
  "<a b=>",
  "</a x>",
  "</a",
  "<a b",
  "<a b=",
  '<a b="',
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

Deno.test("a plain tag is read in one step, not by the stock tokenizer's tag states", () => {
  // The stock states a plain open or close tag passes through, one call per character.
  const states = [
    "stateBeforeTagName",
    "stateInTagName",
    "stateBeforeAttributeName",
    "stateInAttributeName",
    "stateAfterAttributeName",
    "stateBeforeAttributeValue",
    "stateInAttributeValueDoubleQuotes",
    "stateInAttributeValueNoQuotes",
    "stateBeforeClosingTagName",
    "stateInClosingTagName",
  ];
  const proto = Tokenizer.prototype as unknown as Record<string, (...args: unknown[]) => unknown>;
  const calls = new Map<string, number>();
  const saved = states.map((name) => [name, proto[name]] as const);
  for (const [name, method] of saved) {
    proto[name] = function (this: unknown, ...args: unknown[]) {
      calls.set(name, (calls.get(name) ?? 0) + 1);
      return method.apply(this, args);
    };
  }
  try {
    const html = '<div class="a b" id=main hidden><p>text</p><img src="/x.png" alt=""/></div>';
    const skipping = parserEvents(html, SkippingTokenizer);
    assert.deepEqual([...calls], []);
    assert.deepEqual(skipping, parserEvents(html, Tokenizer));
    assert.ok(calls.size > 0, "the stock tokenizer goes through its tag states");
  } finally {
    for (const [name, method] of saved) proto[name] = method;
  }
});

Deno.test("a tag longer than one step reads is handed to the stock states: the same events", () => {
  const pages = [
    `<p>a</p><div${' data-x="1" b'.repeat(600)}>text</div><a ${"n".repeat(5000)}=v>x</a>`,
    `<${"d".repeat(5000)} a=1>x</${"d".repeat(5000)}>`,
    `<i a="${"v".repeat(6000)}" b=2 c='3'>y</i><b ${"x y=z ".repeat(900)}/>`,
  ];
  for (const html of pages) {
    for (const chunk of [Infinity, 4096, 1000]) {
      assert.deepEqual(
        parserEvents(html, SkippingTokenizer, chunk),
        parserEvents(html, Tokenizer, chunk),
        `chunks of ${chunk}`,
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
