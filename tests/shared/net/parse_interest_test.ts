import assert from "node:assert/strict";
import { LeanParser, type ParseInterest } from "../../../shared/net/lean_parser.ts";
import { PARSER_OPTIONS } from "../../../shared/net/html.ts";
import { randomMarkup } from "../../support/random_markup.ts";

/**
 * Tags whose attributes hold entities, quotes of both kinds, no quotes, white space of every
 * kind, the names an interest reads elements by, and a value longer than the skipping
 * tokenizer reads in one step; raw text, comments and implied closes around them.
 */
const PIECES = [
  '<div id="a&amp;b" class=x>',
  '<div class="c" data-keep>',
  "<div\nclass='q'\tdata-KEEP=1\n>",
  "<a href=\"?a=1&amp;b=2\" title='t'>",
  "<a href=a&amp;b>",
  '<span data-x="1" data-y=2 hidden>',
  '<SPAN CLASS="U" ID=up>',
  "<b id='up' class=k>",
  '<b class=k id="nope">',
  "<i class=k id>",
  '<p title="a > b">',
  '<img src="x" / >',
  "<br/>",
  '<link rel=stylesheet href="s.css">',
  "<style>p{color:red}</style>",
  '<script src="x.js">var a = "<b>";</script>',
  "<script>if (a < b && c) {}</script>",
  "<title>T &amp; t</title>",
  `<div class="${"x".repeat(5000)}" data-keep>`,
  `<div class="${"y".repeat(5000)}">`,
  "<li>",
  "<ul>",
  "</ul>",
  "</div>",
  "</span>",
  "</a>",
  "</p>",
  "text &amp; more ",
  "<!-- c -->",
  "<svg><style>s<b>t</b></style><title>u<i>v</i></title></svg>",
  " ",
];

const INTEREST: ParseInterest = {
  attributesOf: new Set(["link", "script", "style"]),
  attributesWith: new Map([["id", new Set(["up", "a&b"])], ["data-keep", null]]),
  textOf: new Set(["script", "style", "title"]),
};

interface Parse {
  /** Open and close events, names only. */
  tags: string[];
  /** Each open tag's attributes. */
  attribs: Record<string, string>[];
  /** Per element the interest reads the text of: all text inside it, in close order. */
  texts: string[];
  nodes: number;
}

/** A parse of `html` written `chunk` characters at a time, with or without `interest`. */
function parse(html: string, chunk: number, interest?: ParseInterest): Parse {
  const out: Parse = { tags: [], attribs: [], texts: [], nodes: 0 };
  const open: { name: string; text: string }[] = [];
  const parser = new LeanParser(
    {
      onopentag(name, attribs) {
        out.tags.push(`<${name}>`);
        out.attribs.push(attribs);
        open.push({ name, text: "" });
      },
      ontext(text) {
        for (const el of open) el.text += text;
      },
      onclosetag(name) {
        out.tags.push(`</${name}>`);
        const el = open.pop()!;
        if (INTEREST.textOf.has(el.name)) out.texts.push(`${el.name}: ${el.text}`);
      },
    },
    PARSER_OPTIONS,
    undefined,
    interest,
  );
  for (let i = 0; i < html.length; i += chunk) parser.write(html.slice(i, i + chunk));
  parser.end();
  out.nodes = (parser as unknown as { nodes: number }).nodes;
  return out;
}

Deno.test("a parse with an interest has the same elements and node count, and what it reads is the same", () => {
  let skipped = 0;
  for (let seed = 1; seed <= 300; seed++) {
    const html = randomMarkup(PIECES, seed, 40);
    for (const chunk of [Infinity, 1, 3, 16, 4099]) {
      const at = `seed ${seed}, chunks of ${chunk}`;
      const full = parse(html, chunk);
      const lean = parse(html, chunk, INTEREST);
      assert.deepEqual(lean.tags, full.tags, at);
      assert.equal(lean.nodes, full.nodes, at);
      assert.deepEqual(lean.texts, full.texts, at);
      full.attribs.forEach((attribs, i) => {
        const name = full.tags.filter((t) => !t.startsWith("</"))[i].slice(1, -1);
        const read = INTEREST.attributesOf.has(name) ||
          Object.entries(attribs).some(([k, v]) => {
            const values = INTEREST.attributesWith.get(k);
            return values === null || values?.has(v);
          });
        // What the interest reads is whole; anything else is either left out or as read.
        if (read) assert.deepEqual(lean.attribs[i], attribs, `${at}: <${name}> ${i}`);
        else {
          for (const [k, v] of Object.entries(lean.attribs[i])) assert.equal(v, attribs[k], at);
          if (Object.keys(attribs).length > Object.keys(lean.attribs[i]).length) skipped++;
        }
      });
    }
  }
  // Not vacuous: elements did open without the attributes nobody reads.
  assert.ok(skipped > 1000, `${skipped} elements opened without their attributes`);
});

Deno.test("a parse with an interest refuses a page at the same bounds", () => {
  const html = randomMarkup(PIECES, 7, 200);
  const nodes = parse(html, Infinity).nodes;
  for (const interest of [undefined, INTEREST]) {
    const bounded = (maxNodes: number) =>
      new LeanParser({}, PARSER_OPTIONS, {
        maxDepth: Infinity,
        maxNodes,
        refuse: (limit) => {
          throw new Error(limit);
        },
      }, interest).end(html);
    bounded(nodes);
    assert.throws(() => bounded(nodes - 1), /maxNodes/);
  }
});

Deno.test("an interest may read elements by an attribute whose name is not ASCII", () => {
  const interest: ParseInterest = {
    attributesOf: new Set(),
    attributesWith: new Map([["\u00e9x", null]]),
    textOf: new Set(),
  };
  const opened: Record<string, string>[] = [];
  new LeanParser(
    { onopentag: (_name, attribs) => opened.push(attribs) },
    PARSER_OPTIONS,
    undefined,
    interest,
  ).end('<div class=a \u00c9X=1><div class=b \u00c9Y=2><div class=c id="\u00e9x">');
  assert.deepEqual(opened, [{ class: "a", "\u00e9x": "1" }, {}, {}]);
});
