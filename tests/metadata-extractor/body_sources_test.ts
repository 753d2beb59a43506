/** Body markup fallbacks (functions/metadata-extractor/body_sources.ts), alone and through the extractor. */
import assert from "node:assert/strict";
import { parse as parseSelector } from "css-what";
import {
  AUTHOR_RULES,
  DATE_RULES,
  fromRules,
  PUBLISHER_RULES,
} from "../../functions/metadata-extractor/body_sources.ts";
import { selectorKey } from "../../shared/net/selector_key.ts";
import { extractMetadata } from "../../functions/metadata-extractor/extract.ts";
import { parseHtml, select } from "../../shared/net/html.ts";

const AT = "https://site.test/2013/07/story.html";

const body = (markup: string, head = "") =>
  `<!doctype html><html><head>${head}</head><body>${markup}</body></html>`;

Deno.test("a top heading's text is never the author or the publisher", async () => {
  // The headline and a section title whose classes the byline and logo rules match.
  const html = body(
    `<h1 class="story-author-headline">Senate Passes The Budget Bill</h1>` +
      `<h2 class="logo">Related Stories From Elsewhere</h2>` +
      `<p>Text of the story, long enough to be a paragraph of the article body.</p>`,
  );
  const doc = parseHtml(html);
  assert.equal(await fromRules(doc, AUTHOR_RULES), null);
  assert.equal(await fromRules(doc, PUBLISHER_RULES), null);
  const m = await extractMetadata(html, AT);
  assert.equal(m.author, null);
  assert.equal(m.siteName, null);
});

Deno.test("a heading's text gives way to the real byline and the title's site suffix", async () => {
  const html = body(
    `<h2 id="logo"><a href="/">Section Front Page</a></h2>` +
      `<h1><span class="byline">Senate Passes The Budget Bill</span></h1>` +
      `<p class="byline">By Ann Lee and Bob Day</p>`,
    `<title>Senate passes the budget - The Courier</title>`,
  );
  const m = await extractMetadata(html, AT);
  assert.equal(m.author, "Ann Lee and Bob Day");
  assert.equal(m.siteName, "The Courier");
});

Deno.test("navigation text is never the author or the publisher", async () => {
  const html = body(
    `<nav><ul><li class="nav-authors"><a href="/authors/">For Authors</a></li>` +
      `<li><a class="brand" href="/">Home Page</a></li></ul></nav>` +
      `<div role="navigation"><a rel="author" href="/team">Our Writers</a></div>` +
      `<article><span class="vcard"><a class="author fn" href="#a1">Richard Johnston</a></span>` +
      `</article>`,
  );
  const doc = parseHtml(html);
  assert.equal(await fromRules(doc, AUTHOR_RULES), "Richard Johnston");
  assert.equal(await fromRules(doc, PUBLISHER_RULES), null);
});

Deno.test("bylines in lower headings (h3-h6) are still read", async () => {
  const html = body(`<h6 class="byline">By <span itemprop="author">PETER BAKER</span></h6>`);
  assert.equal((await extractMetadata(html, AT)).author, "PETER BAKER");
});

Deno.test("a logo image's alt names the publisher, wherever the logo sits", async () => {
  const html = body(
    `<header><nav><div class="logo"><a href="/"><img src="/l.png" alt="Forbes">` +
      `</a></div></nav></header>`,
  );
  assert.equal((await extractMetadata(html, AT)).siteName, "Forbes");
});

Deno.test("a loose byline match needs two words once cleaned: a commenter's handle is not the author", async () => {
  // A comment's "handle wrote:" line and a handle before its date stamp come before the story's
  // byline in document order; neither is the page's author.
  const html = body(
    `<div class="commentAuthor"><a href="/profile/unionwv">unionwv</a> wrote:</div>` +
      `<dt class="author"><span>by <b>carlloeber</b></span> July 19, 2013 3:21 AM EDT</dt>` +
      `<p class="byline">By Crispian Balmer and Noah Browning</p>`,
  );
  assert.equal((await extractMetadata(html, AT)).author, "Crispian Balmer and Noah Browning");
  // One word and a date stamp: not a byline (and the separator after a wire credit goes).
  const credit = body(
    `<div class="storyBlogByline"><span class="source">CBS/AP<span>/</span></span>` +
      `<span class="time">June 6, 2013, 10:59 AM</span></div>`,
  );
  assert.equal((await extractMetadata(credit, AT)).author, null);
});

Deno.test("the body rules' keys (shared selectorKey): the elements keyed are those the rules match", () => {
  const key = (s: string) => selectorKey(parseSelector(s));
  // The rules' candidates: the same answers as testing every element.
  const doc = parseHtml(
    body(
      `<p class="byline">By <a rel="author" class="author-name" href="/author/ann-lee/">Ann Lee</a>` +
        `</p><span id="date-line" class="date">June 7, 2013</span><time datetime="2013-06-07">x</time>` +
        `<div class="logo"><a href="/"><img alt="The Courier" src="/l.png"></a></div>`,
    ),
  );
  let matched = 0;
  for (const rule of [...AUTHOR_RULES, ...DATE_RULES, ...PUBLISHER_RULES]) {
    const k = key(rule.selector);
    assert.ok(k !== null, rule.selector);
    for (const el of select(doc, rule.selector)) {
      matched++;
      assert.ok(k[0] === "<" ? el.name === k.slice(1) : k.slice(1) in el.attribs, rule.selector);
    }
  }
  assert.ok(matched >= 10, `only ${matched} matches: the check would be empty`);
});
