import assert from "node:assert/strict";
import { Parser, serialize } from "parse5";
import { skippingParser, writeInSlices } from "../../functions/ai-summary/skipping_parser.ts";
import { type MakeParser, parse5Tokens, parse5Tree } from "../support/parse5_tokens.ts";
import { randomMarkup } from "../support/random_markup.ts";

const stock: MakeParser = (options) => new Parser(options);
const skipping: MakeParser = (options) => skippingParser(options);

/**
 * Markup pieces that exercise every state the skipping tokenizer touches and its neighbours:
 * the text states (script, style, title, textarea, plaintext), attribute values, comments,
 * references, and what the preprocessor treats apart (CR, LF, pairs, lone surrogates,
 * controls, noncharacters).
 */
const PIECES = [
  "text ",
  "more words",
  "<",
  ">",
  "&",
  "&amp;",
  "&amp",
  "&#x41;",
  "&#128512;",
  "&notit;",
  "<p>",
  "</p>",
  '<a href="x&amp;y z">',
  "<DIV Class=x data-Long-name-here='1' a\"b=2 c<d=3 e'f>",
  '<a id=x ID="y" class = "a b" data-v=\'1\' hidden>',
  "<input type=checkbox checked/>",
  "<img src=/a/b.png alt='x\ny'/>",
  "<a href=x/>",
  "<p id=a/ b>",
  "<b:c d>",
  "<x-y z=1 >",
  "</div >",
  "</DIV>",
  "</p x>",
  '<span\tclass="s"\f>',
  "<a x='\u00e9\u65e5'>",
  "<a x='\ud83d\ude00'>",
  '<a x="a\rb">',
  "<svg viewBox='0 0 1 1'><path xlink:href=#a /></svg>",
  "<my-element some-attr>",
  "<a href='q&lt; r'>",
  "<a title=un&amp;q>",
  '<img alt="">',
  "<br/>",
  "<script>",
  "</script>",
  "<!--<script>",
  "<style>",
  "</style>",
  "<title>",
  "</title>",
  "<textarea>",
  "</textarea>",
  "<pre>",
  "<noscript>",
  "<xmp>",
  "<svg>",
  "<math>",
  "</svg>",
  "<table>",
  "<td>",
  "<select>",
  "<!--",
  "-->",
  "--",
  "<![CDATA[",
  "]]>",
  "<!doctype html>",
  "<?xml ?>",
  "</",
  '"',
  "'",
  "=",
  " ",
  "  \t",
  "\f",
  "\n",
  "\r",
  "\r\n",
  "é",
  "日本",
  "😀",
  "\ud800",
  "\udc00",
  "\0",
  "\x01",
  "\x7f",
  "\x85",
  "\ufdd0",
  "\uffff",
  "<plaintext>",
];

/**
 * How many times the tokenizer of `make(options)` runs the state methods `names` while it reads
 * `html` (each wrapped to count its calls).
 */
function stateSteps(
  make: MakeParser,
  names: readonly string[],
  html: string,
  options: Parameters<MakeParser>[0] = {},
): number {
  const t = make(options).tokenizer;
  const states = t as unknown as Record<string, (cp: number) => void>;
  let steps = 0;
  for (const name of names) {
    const state = states[name];
    states[name] = function (this: unknown, cp: number) {
      steps++;
      state.call(this, cp);
    };
  }
  t.write(html, true);
  return steps;
}

/** A deterministic random page of PIECES (a failing seed reproduces). */
const randomPage = (seed: number, length: number) => randomMarkup(PIECES, seed, length);

Deno.test("skippingParser: the stock tokens, locations, errors and tree, at every chunking", () => {
  for (let seed = 1; seed <= 500; seed++) {
    const html = randomPage(seed, 60);
    for (const chunk of [Infinity, 1, 2, 3, 7, 16]) {
      assert.deepEqual(
        parse5Tokens(html, skipping, chunk),
        parse5Tokens(html, stock, chunk),
        `seed ${seed}, chunks of ${chunk}: ${JSON.stringify(html)}`,
      );
    }
  }
});

Deno.test("skippingParser: the stock tokens without locations (whole plain tags), at every chunking", () => {
  for (let seed = 1; seed <= 500; seed++) {
    const html = randomPage(seed, 60);
    for (const chunk of [Infinity, 1, 3, 16]) {
      assert.deepEqual(
        parse5Tokens(html, skipping, chunk, false),
        parse5Tokens(html, stock, chunk, false),
        `seed ${seed}, chunks of ${chunk}: ${JSON.stringify(html)}`,
      );
    }
  }
});

Deno.test("skippingParser: plain tags are read whole, the rest by the stock states", () => {
  const plain = '<div class="a b" id=x hidden><img src=/p.png alt="" /></div><x-y data-z=1>';
  const other = "<a href='x&amp;y'>z</a><p a=1 A=2>q</p>"; // a reference; a duplicate
  // Counted through the state the stock tokenizer enters for each attribute's name.
  const count = (make: MakeParser, html: string, locations = false) =>
    stateSteps(make, ["_stateAttributeName"], html, { sourceCodeLocationInfo: locations });
  assert.equal(count(skipping, plain), 0);
  assert.ok(count(stock, plain) > 10);
  assert.ok(count(skipping, other) > 0);
  assert.equal(count(skipping, plain + other), count(skipping, other));
  // With locations (recorded per attribute), every tag goes through them.
  assert.ok(count(skipping, plain, true) > 0);
  // In the data state, a plain tag is read from its `<`: the tag open states never run.
  const opens = (make: MakeParser, html: string) =>
    stateSteps(make, ["_stateTagOpen", "_stateEndTagOpen"], html);
  assert.equal(opens(skipping, `${plain}\n  </x-y> text</div>`), 0);
  assert.equal(opens(stock, `${plain}\n  </x-y> text</div>`), 9);
  assert.equal(opens(skipping, other), 2); // the two start tags that are not plain
  assert.equal(parse5Tree(plain + other, skipping), parse5Tree(plain + other, stock));
});

Deno.test("skippingParser: the stock tree without locations or error handler (the reader's options)", () => {
  for (let seed = 1000; seed <= 1300; seed++) {
    const html = randomPage(seed, 80);
    for (const chunk of [Infinity, 5]) {
      assert.equal(parse5Tree(html, skipping, chunk), parse5Tree(html, stock, chunk));
    }
  }
});

Deno.test("skippingParser: long runs come out whole, references decoded around them", () => {
  const words = "lorem ipsum dolor sit amet ".repeat(2000);
  const html = `<title>a &amp; b</title><p class="x y &quot;z&quot;">${words}&lt;end</p>` +
    `<script>var s = "${"abc ".repeat(500)}";</script><!-- ${"c".repeat(3000)} -->`;
  assert.equal(parse5Tree(html, skipping, 16 * 1024), parse5Tree(html, stock));
  const tree = parse5Tree(html, skipping, 1000);
  assert.ok(tree.includes(`${words}&lt;end</p>`));
  assert.ok(tree.includes('class="x y &quot;z&quot;"'));
  assert.ok(tree.includes(`<!-- ${"c".repeat(3000)} -->`));
});

Deno.test("skippingParser: its tokenizer skips (fewer state steps than stock)", () => {
  // Counted through the state method the loop calls per character in text.
  const count = (make: MakeParser) =>
    stateSteps(make, ["_stateData"], `<p>${"abcdefghij ".repeat(1000)}</p>`);
  const [fast, slow] = [count(skipping), count(stock)];
  assert.ok(fast * 4 < slow, `${fast} steps vs ${slow}`);
});

Deno.test("writeInSlices: the stock tree, read a slice at a time with a pause between", async () => {
  for (let seed = 2000; seed <= 2150; seed++) {
    const html = randomPage(seed, 80);
    for (const slice of [1, 7, 64]) {
      const parser = skipping({});
      let pauses = 0;
      await writeInSlices(parser, html, slice, () => {
        pauses++;
        return Promise.resolve();
      });
      assert.equal(serialize(parser.document), parse5Tree(html, stock), `seed ${seed}, ${slice}`);
      // A step may read more than a slice (a run, a whole tag), never less.
      assert.ok(pauses <= html.length / slice, `${pauses} pauses`);
      if (slice === 1) assert.ok(pauses > 0);
    }
  }
});

Deno.test("writeInSlices: a long page pauses about once a slice", async () => {
  const html = `<body>${'<p class="x">some words &amp; more</p>\n'.repeat(5000)}</body>`;
  const parser = skipping({});
  const seen: number[] = [];
  const t = parser.tokenizer as unknown as {
    preprocessor: { pos: number; droppedBufferSize: number };
  };
  await writeInSlices(parser, html, 1000, () => {
    seen.push(t.preprocessor.droppedBufferSize + t.preprocessor.pos);
    return Promise.resolve();
  });
  assert.equal(serialize(parser.document), parse5Tree(html, stock));
  assert.ok(Math.abs(seen.length - html.length / 1000) < 5, `${seen.length} pauses`);
  // Each pause comes within a tag or a run (at most a few dozen characters) past its slice.
  seen.forEach((at, i) => assert.ok(at >= (i + 1) * 1000 && at < (i + 1) * 1000 + 100 * (i + 1)));
});
