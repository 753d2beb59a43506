/**
 * The reader (functions/ai-summary/readable.ts): Readability's algorithm on the article
 * fixtures and on small pages built to show each rule. bench/reader.ts measures it against
 * Readability itself on real pages.
 */
import assert from "node:assert/strict";
import type { Element } from "domhandler";
import {
  extractArticle,
  HIDDEN_CLASSES,
  isHidden,
  linkDensities,
  linkDensity,
  readPage,
} from "../../functions/ai-summary/readable.ts";
import { bodyOf, parseTree, TreeLimitError } from "../../functions/ai-summary/tree.ts";
import { descendants, innerText } from "../../functions/ai-summary/dom.ts";
import { cooperative } from "../../shared/contract/cooperative.ts";
import { NESTED_TEXT, randomMarkup } from "../support/random_markup.ts";

const fixture = (name: string) =>
  Deno.readTextFileSync(new URL(`../fixtures/articles/${name}`, import.meta.url));

/** A paragraph of `n` sentences about `topic`, long enough to score. */
const para = (topic: string, n = 3) =>
  `<p>${
    Array.from(
      { length: n },
      (_, i) => `The ${topic} sentence number ${i + 1} says something, and it says it at length.`,
    ).join(" ")
  }</p>`;

Deno.test("readPage: the article of the fixture, without page chrome, title heading or byline", async () => {
  const { title, text } = await readPage(fixture("solar_sails.html"));
  assert.equal(title, "How Solar Sails Work");
  assert.ok(text.startsWith("A solar sail is a spacecraft propulsion method"), text);
  assert.ok(text.includes("\nBuilding a sail\n"));
  assert.ok(text.endsWith("send tiny probes toward nearby stars."));
  assert.ok(!/cookies|Space Notes|newsletter|Related|Copyright|analytics|By A\. Writer/.test(text));
});

Deno.test("readPage: without landmarks, the body's text minus navigation, scripts and footers", async () => {
  assert.equal(
    (await readPage(fixture("no_landmarks.html"))).text,
    "This page has no main element and no article element at all.\n" +
      "Its readable text is what is left of the body once navigation, scripts and footers are gone.",
  );
  assert.equal((await readPage(fixture("empty_body.html"))).text, "");
});

Deno.test("readPage: a block of links inside <main> (a 'more from' box, a menu) is left out", async () => {
  const links = Array.from({ length: 8 }, (_, i) => `<li><a href="/s/${i}">Story ${i}</a></li>`);
  const html = `<body><main><div class="story">${para("first", 4)}${para("second", 4)}` +
    `<div><h3>More from Example News</h3><ul>${links.join("")}</ul></div>` +
    `${para("third", 4)}</div></main></body>`;
  const { text } = await readPage(html);
  assert.ok(text.includes("The first sentence") && text.includes("The third sentence"));
  assert.ok(!text.includes("Story 3"), text);
});

Deno.test("readPage: an article inside a wrapper whose class says 'sidebar' is not dropped", async () => {
  const html = `<body><div class="layout has-sidebar-right"><article>${para("kept", 6)}` +
    `${para("also kept", 6)}</article></div><div class="comments">${
      para("comment", 2)
    }</div></body>`;
  const { text } = await readPage(html);
  assert.ok(text.includes("The kept sentence number 6"), text);
  assert.ok(text.includes("The also kept sentence number 1"), text);
});

Deno.test("readPage: hidden text goes: attribute, aria-hidden, inline style, hiding classes", async () => {
  const hidden = [
    `<p hidden>HIDDEN-ATTR</p>`,
    `<span aria-hidden="true">HIDDEN-ARIA</span>`,
    `<span style="display: none">HIDDEN-STYLE</span>`,
    `<span class="sr-only">HIDDEN-SR</span>`,
    `<span class="a visually-hidden">HIDDEN-VH</span>`,
    `<div class="hide-content">HIDDEN-HC</div>`,
  ];
  const html = `<body><article>${para("shown", 5)}${hidden.join("")}${para("also shown", 5)}` +
    `</article></body>`;
  const { text } = await readPage(html);
  assert.ok(text.includes("The shown sentence") && text.includes("also shown"));
  assert.ok(!/HIDDEN/.test(text), text);
});

Deno.test("isHidden: the rules one by one", async () => {
  const { parseTree } = await import("../../functions/ai-summary/tree.ts");
  const { descendants } = await import("../../functions/ai-summary/dom.ts");
  const doc = await parseTree(
    `<p id=a hidden></p><p id=b aria-hidden=false></p><p id=c style="visibility:hidden"></p>` +
      `<p id=d class="nothidden"></p><p id=e aria-hidden=true class=fallback-image></p>`,
  );
  const byId = Object.fromEntries(descendants(doc).map((el) => [el.attribs.id, isHidden(el)]));
  assert.deepEqual(
    { a: byId.a, b: byId.b, c: byId.c, d: byId.d, e: byId.e },
    { a: true, b: false, c: true, d: false, e: false },
  );
});

Deno.test("isHidden: every hiding class, in any case, alone or among others", async () => {
  const { Element } = await import("domhandler");
  const el = (cls: string) => new Element("div", { class: cls }, []);
  for (const name of HIDDEN_CLASSES) {
    assert.ok(isHidden(el(name)), name);
    assert.ok(isHidden(el(`a ${name.toUpperCase()}\tb`)), name);
    assert.ok(!isHidden(el(`x${name} ${name}-y`)), name);
  }
  assert.ok(!isHidden(el("story hid-den main")));
});

Deno.test("readPage: text after a stray </html> stays in the body, as a browser builds it", async () => {
  const html = `<html><body><article>${para("before", 5)}</article></body></html>` +
    `<article>${para("after", 5)}</article>`;
  const { text } = await readPage(html);
  assert.ok(text.includes("The after sentence number 5"), text);
});

Deno.test("readPage: inline elements join words, blocks break lines, source wraps are spaces", async () => {
  const { text } = await readPage(
    `<body><article><p>One <b>bold</b>\n   word, and ${"more words, ".repeat(60)}end.</p>` +
      `<p>Two<br>lines of text that go on for a while, long enough to count.</p></article></body>`,
  );
  assert.ok(text.startsWith("One bold word, and more words,"), text);
  assert.ok(
    text.endsWith("end.\nTwo\nlines of text that go on for a while, long enough to count."),
  );
});

Deno.test("readPage: deep nesting is refused with a clear message, never a stack overflow", async () => {
  await assert.rejects(
    readPage(`<body>${"<div>".repeat(5000)}x</body>`),
    (err: unknown) =>
      err instanceof TreeLimitError &&
      err.message === "Page nested too deeply to read: over 1024 levels",
  );
  // Under the bound, a deep page is read with iterative walks (no recursion to overflow).
  const { text } = await readPage(`<body>${"<div>".repeat(1000)}${para("deep", 8)}</body>`);
  assert.ok(text.includes("The deep sentence number 8"));
});

Deno.test("readPage: node and time bounds", async () => {
  await assert.rejects(
    readPage(`<body>${"<p>x</p>".repeat(2000)}</body>`, {
      limits: { maxDepth: 100, maxNodes: 1000, maxMs: 10_000 },
    }),
    /Page too large to read: over 1000 nodes/,
  );
  await assert.rejects(
    readPage(`<body>${"<p>x</p>".repeat(200_000)}</body>`, {
      limits: { maxDepth: 100, maxNodes: 1_000_000, maxMs: 1 },
    }),
    /Page too complex to read: took over 1 ms/,
  );
});

Deno.test("readPage: an element of 150,000 children is read, never a stack overflow", async () => {
  // Its children once went onto the walk's stack as 150,000 arguments of one push call.
  const html = `<body><div>${"<img src=a.png>".repeat(150_000)}</div><p>${
    "Some words of the page. ".repeat(30)
  }</p></body>`;
  const { text } = await readPage(html, {
    limits: { maxDepth: 1024, maxNodes: 1_000_000, maxMs: 120_000 },
  });
  assert.match(text, /Some words of the page\./);
});

Deno.test("extractArticle: a retry reads a fresh parse of the page; a long article needs none", async () => {
  const read = async (html: string) => {
    let parses = 0;
    const reparse = () => {
      parses++;
      return parseTree(html);
    };
    const { article } = await extractArticle(await parseTree(html), reparse);
    return { text: article ? innerText(article) : "", parses };
  };
  const long = await read(`<body><article>${para("story", 4)}${para("story", 4)}</article></body>`);
  assert.equal(long.parses, 0);
  assert.match(long.text, /The story sentence number 4/);
  // Under 500 characters: every attempt runs (three retries), each on a page that the previous
  // attempt's removals have not touched (the comment box is dropped by the first attempt only).
  const short = await read(
    `<body><div class="comments">${para("short", 2)}</div></body>`,
  );
  assert.equal(short.parses, 3);
  assert.match(short.text, /The short sentence number 2/);
});

Deno.test("linkDensities: each candidate's linkDensity, nested ones measured once", async () => {
  for (let seed = 1; seed <= 100; seed++) {
    const html = `<div>${randomMarkup(NESTED_TEXT, seed, 60)}`;
    const body = bodyOf(await parseTree(html))!;
    // Every element, and every other one, in a shuffled order: the answer keeps the order.
    const all = descendants(body);
    // The last case's root holds only some of the candidates: the others are measured alone.
    const cases = [[body, all], [body, all.filter((_, i) => i % 2 === 0).reverse()], [all[0], all]];
    for (const [root, candidates] of cases as [Element, Element[]][]) {
      if (!root) continue;
      const got = await linkDensities(root, candidates, cooperative());
      const want = candidates.map((c) => linkDensity(c));
      got.forEach((d, i) =>
        assert.ok(Math.abs(d - want[i]) < 1e-12, `${html}: ${d} vs ${want[i]}`)
      );
    }
  }
});

Deno.test("readPage: deeply nested candidates cost linear time", async () => {
  // Each level a div whose paragraph scores it and its ancestors: link densities measured one
  // candidate at a time walked every inner level again (8x the levels took 35-48x the time;
  // measured inner first, 9-12x).
  const page = (levels: number) =>
    `<html><body>${
      "<div><p>Some words here, and more words, with a <a href=/x>link in it</a> too.</p>"
        .repeat(levels)
    }</body></html>`;
  const time = async (levels: number) => {
    const html = page(levels);
    const t = performance.now();
    await readPage(html);
    return performance.now() - t;
  };
  await time(100);
  // Each size's best of three, taken in turn, so a pause of the machine inflates neither.
  let [small, big] = [Infinity, Infinity];
  for (let round = 0; round < 3; round++) {
    small = Math.min(small, await time(100));
    big = Math.min(big, await time(800));
  }
  const ratio = big / Math.max(0.05, small);
  assert.ok(ratio < 20, `8x the levels took ${ratio.toFixed(1)}x the time`);
});
