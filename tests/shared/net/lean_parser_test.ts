import assert from "node:assert/strict";
import { type Handler, parseDocument, Parser, Tokenizer } from "htmlparser2";
import { DomHandler } from "domhandler";
import { LeanParser, type ParseBounds } from "../../../shared/net/lean_parser.ts";
import { SkippingTokenizer } from "../../../shared/net/skipping_tokenizer.ts";
import {
  type HtmlLimitError,
  parseBounds,
  parseHtml,
  PARSER_OPTIONS,
} from "../../../shared/net/html.ts";
import { type MakeParser, parserEvents } from "../../support/parser_events.ts";
import { randomMarkup } from "../../support/random_markup.ts";
import { LimitedHandler } from "../../support/limited_handler.ts";
import { domLines } from "../../support/dom_lines.ts";

/**
 * Markup pieces for the parser's tree rules: implied closes, void elements, stray end tags,
 * nested forms, foreign content (svg, math, their integration points and case adjustments),
 * CDATA, comments, doctype and processing instructions.
 */
const PIECES = [
  "text ",
  "&amp;",
  "<p>",
  "</p>",
  "<li>",
  "</li>",
  "<ul>",
  "</ul>",
  "<td>",
  "<tr>",
  "<th>",
  "</td>",
  "<table>",
  "</table>",
  "<tbody>",
  "<thead>",
  "<option>",
  "<optgroup>",
  "<select>",
  "</select>",
  "<input>",
  "<button>",
  "<form>",
  "</form>",
  "<div>",
  "</div>",
  "<h1>",
  "</h2>",
  "<dd>",
  "<dt>",
  "<a href=x>",
  "</a>",
  '<a href="1" HREF="2" b>',
  "<img src=y>",
  "<image>",
  "<br>",
  "</br>",
  "<br/>",
  "<hr/>",
  "<meta charset=utf-8>",
  "</img>",
  "<svg>",
  "</svg>",
  "<math>",
  "</math>",
  "<mi>",
  "</mi>",
  "<foreignObject>",
  "</foreignobject>",
  "<clipPath/>",
  "<lineargradient>",
  "</linearGradient>",
  "<title>",
  "</title>",
  "<desc>",
  "</desc>",
  "<circle/>",
  "<rt>",
  "<rp>",
  "<body>",
  "<head>",
  "<script>x</script>",
  "<!-- c -->",
  "<![CDATA[d]]>",
  "<!doctype html>",
  "<?xml v?>",
  "</x>",
  "<x/>",
  " ",
];

const randomPage = (seed: number, length: number) => randomMarkup(PIECES, seed, length);

const lean: MakeParser = (handler, options) => new LeanParser(handler, options);

Deno.test("the lean parser emits the stock parser's events, at every chunking", () => {
  for (let seed = 1; seed <= 400; seed++) {
    const html = randomPage(seed, 80);
    for (const chunk of [Infinity, 1, 2, 3, 7, 16]) {
      for (const tokenizer of [SkippingTokenizer, Tokenizer]) {
        assert.deepEqual(
          parserEvents(html, tokenizer, chunk, { decodeEntities: true }, lean),
          parserEvents(html, tokenizer, chunk),
          `seed ${seed}, chunks of ${chunk}: ${JSON.stringify(html)}`,
        );
      }
    }
  }
});

Deno.test("the lean parser's pages exercise the rules it replaces", () => {
  // The events above would be vacuous if the pieces never met: implied and stray closes,
  // the ignored second form, foreign contexts and an adjusted name all occur.
  const all = Array.from({ length: 50 }, (_, i) => parserEvents(randomPage(i + 1, 80), Tokenizer))
    .flat().join("\n");
  for (const needle of ['"p",true]', '"br",{},true]', '"foreignObject"', '"clipPath"', '"img"']) {
    assert.ok(all.includes(needle), needle);
  }
});

Deno.test("parseHtml builds stock parseDocument's tree", () => {
  for (let seed = 1; seed <= 200; seed++) {
    const html = randomPage(seed, 80);
    const options = { decodeEntities: true, lowerCaseAttributeNames: true };
    assert.deepEqual(
      domLines(parseHtml(html)),
      domLines(parseDocument(html, { ...options, Tokenizer: SkippingTokenizer })),
      JSON.stringify(html),
    );
  }
});

Deno.test("the lean parser refuses a page where stock events through the old bounds wrapper did", () => {
  let refused = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const html = randomPage(seed, 60);
    const limits = {
      maxDepth: 1 + seed % 9,
      maxNodes: 10 + seed % 50,
      maxMillis: 1e9,
      sliceChars: 1e9,
    };
    const bounds = parseBounds(limits);
    const run = (make: (h: Partial<Handler>) => Parser) => {
      const events: string[] = [];
      // A handler with no per-attribute or tag-name listener, as the routes' handlers.
      const h: Partial<Handler> = {
        onopentag: (n, a, i) => events.push(`open ${n} ${JSON.stringify(a)} ${i}`),
        onclosetag: (n, i) => events.push(`close ${n} ${i}`),
        ontext: (t) => events.push(`text ${t}`),
        oncomment: (t) => events.push(`comment ${t}`),
        onprocessinginstruction: (n, d) => events.push(`pi ${n} ${d}`),
        onend: () => events.push("end"),
      };
      const parser = make(h);
      try {
        for (let i = 0; i < html.length; i += 5) parser.write(html.slice(i, i + 5));
        parser.end();
      } catch (err) {
        events.push(`refused ${(err as HtmlLimitError).limit}: ${(err as Error).message}`);
      }
      return events;
    };
    const options = PARSER_OPTIONS;
    const actual = run((h) => new LeanParser(h, options, bounds));
    const expected = run((h) => new Parser(new LimitedHandler(h, limits), options));
    assert.deepEqual(actual, expected, `seed ${seed}: ${JSON.stringify(html)}`);
    if (expected.at(-1)!.startsWith("refused")) refused++;
  }
  assert.ok(refused > 100, `only ${refused} pages refused`);
});

Deno.test("the lean parser builds the same domhandler tree as the stock parser, bounded", () => {
  for (let seed = 1; seed <= 100; seed++) {
    const html = randomPage(seed, 80);
    const options = PARSER_OPTIONS;
    const a = new DomHandler();
    const bounds: ParseBounds = { maxDepth: 1e9, maxNodes: 1e9, refuse: () => assert.fail() };
    new LeanParser(a, options, bounds).end(html);
    const b = new DomHandler();
    new Parser(b, options).end(html);
    assert.deepEqual(domLines(a.root), domLines(b.root));
  }
});

Deno.test("the lean parser refuses XML mode and case-kept tag names (it parses HTML only)", () => {
  assert.throws(() => new LeanParser({}, { xmlMode: true }));
  assert.throws(() => new LeanParser({}, { lowerCaseTags: false }));
});
