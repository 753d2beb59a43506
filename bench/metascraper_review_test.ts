/**
 * Where /metadata and metascraper disagree on real pages and metascraper is the one that is
 * wrong (the METASCRAPER_WRONG rules of bench/metadata.ts): each kind shown on a small page,
 * both tools run on the same HTML. metascraper is a benchmark dependency only (bench/deno.json), so this runs with
 * `deno task test:bench` (and in CI), not with `deno task test`.
 */
import assert from "node:assert/strict";
import { extractMetadata } from "../functions/metadata-extractor/extract.ts";
import type { PageMetadata } from "../functions/metadata-extractor/schema.ts";
import {
  type Comparable,
  metascraper as benchMetascraper,
  METASCRAPER_WRONG,
  ours,
  verdict,
} from "./metadata.ts";

// As in bench/metadata.ts: skip the native re2 attempt (must be set before helpers load).
Deno.env.set("METASCRAPER_RE2", "false");

const URL_ = "https://news.example.com/2013/07/story";

/** A result with no field found, for comparing single fields. */
const EMPTY = {
  title: null,
  description: null,
  image: null,
  author: null,
  date: null,
  publishedTime: null,
  modifiedTime: null,
  lang: null,
  siteName: null,
  logo: null,
  canonical: null,
} as unknown as PageMetadata;

async function metascraper(html: string): Promise<Record<string, string | null>> {
  const { default: create } = await import("metascraper");
  const rules = await Promise.all(
    ["author", "date", "description", "image", "lang", "publisher"].map((n) =>
      import(`metascraper-${n}`)
    ),
  );
  // deno-lint-ignore no-explicit-any
  const scrape = create(rules.map((m: any) => m.default()));
  return (await scrape({ html, url: URL_ })) as Record<string, string | null>;
}

Deno.test("metascraper wrong: a time with no date becomes today; ours finds the page's date", async () => {
  const html = `<html><body><article><span id="dateline">8:38 pm</span>` +
    `<p class="date">June 6, 2013</p></article></body></html>`;
  const theirs = await metascraper(html);
  assert.ok(theirs.date && !theirs.date.startsWith("2013"), `metascraper: ${theirs.date}`);
  assert.equal(new Date(theirs.date).getUTCFullYear(), new Date().getUTCFullYear());
  assert.equal((await extractMetadata(html, URL_)).date, "2013-06-06T12:00:00.000Z");
});

Deno.test("metascraper wrong: xml:lang and Content-Language are not read", async () => {
  const html = `<html xml:lang="en-GB"><head><meta http-equiv="content-language" content="en-GB">` +
    `</head><body><p>x</p></body></html>`;
  assert.equal((await metascraper(html)).lang, null);
  assert.equal((await extractMetadata(html, URL_)).lang, "en-GB");
});

Deno.test("metascraper wrong: the page's first <img>, an e-mail button, is its preview image", async () => {
  const html = `<html><body><div class="tools"><img src="/images/email.jpg"></div>` +
    `<p>Story text without a picture.</p></body></html>`;
  assert.equal((await metascraper(html)).image, "https://news.example.com/images/email.jpg");
  assert.equal((await extractMetadata(html, URL_)).image, null);
});

Deno.test("metascraper wrong: twice-encoded entities stay in the description", async () => {
  const html = `<html><head><meta name="description" content="Earth&amp;rsquo;s highest peak">` +
    `</head><body></body></html>`;
  assert.equal((await metascraper(html)).description, "Earth&rsquo;s highest peak");
  assert.equal((await extractMetadata(html, URL_)).description, "Earth’s highest peak");
});

Deno.test("metascraper wrong: a date stamp is the author; an e-mail loses its '@'", async () => {
  const stamp =
    `<html><body><div class="byline"><span class="author">2:49 p.m. EDT May 15, 2013</span>` +
    `</div></body></html>`;
  assert.equal((await metascraper(stamp)).author, "2:49 p.m. EDT May 15, 2013");
  assert.equal((await extractMetadata(stamp, URL_)).author, null);
  const email =
    `<html><head><meta name="author" content="Tom Mahon, Staff Writer mahont@phillynews.com">` +
    `</head><body></body></html>`;
  assert.equal((await metascraper(email)).author, "Tom Mahon, Staff Writer mahontphillynews.com");
  assert.equal(
    (await extractMetadata(email, URL_)).author,
    "Tom Mahon, Staff Writer mahont@phillynews.com",
  );
});

Deno.test("metascraper wrong: a related story's `publishDate` outranks the page's <meta name=date>", async () => {
  // metascraper tries its "published" rules, `[class*=publish]` among them, before `meta[name=date]`.
  const html = `<html><head><meta name="date" content="2013-05-14"></head><body>` +
    `<article><p>Story.</p></article><ul class="related"><li><a href="/other">Other</a>` +
    `<span class="publishDate">05/28/2013, 9:14 a.m.</span></li></ul></body></html>`;
  const theirs = await metascraper(html);
  assert.ok(theirs.date?.startsWith("2013-05-28"), `metascraper: ${theirs.date}`);
  assert.equal((await extractMetadata(html, URL_)).date, "2013-05-14T00:00:00.000Z");
});

/** The METASCRAPER_WRONG rules of bench/metadata.ts that explain a page's difference in `field`. */
async function reviewedBy(html: string, field: keyof Comparable): Promise<string[]> {
  const page = { name: "review", url: URL_, html, fixture: true };
  const [mine, theirs] = [ours(), await benchMetascraper()];
  const a = mine.fields(await mine.extract(page), page);
  const b = theirs.fields(await theirs.extract(page), page);
  assert.notEqual(verdict(field, a, b, page), "agree", `${field} agrees`);
  return METASCRAPER_WRONG.filter((r) => r.field === field && r.applies(a, b, page))
    .map((r) => r.reason);
}

Deno.test("metascraper wrong: a commenter's 'name wrote:' line is the page's author", async () => {
  const html = `<html><body><article><p class="byline">By Ann Lee and Bob Day</p>` +
    `<p>Story.</p></article><div class="comments"><div class="commentAuthor">` +
    `<a href="/profile/unionwv">unionwv</a> wrote:</div><p>A comment.</p></div></body></html>`;
  assert.equal((await metascraper(html)).author, "unionwv");
  assert.equal((await extractMetadata(html, URL_)).author, "Ann Lee and Bob Day");
  assert.match((await reviewedBy(html, "author")).join(), /commenter's name/);
});

Deno.test("metascraper wrong: a navigation label ('For Authors') is the author", async () => {
  const html = `<html><body><nav><ul><li class="nav-authors"><a href="/authors/">For Authors</a>` +
    `</li></ul></nav><article><ul class="authors"><li><span class="vcard">` +
    `<a href="#auth-1" class="fn">Richard Johnston</a></span></li></ul><p>Story.</p></article>` +
    `</body></html>`;
  assert.equal((await metascraper(html)).author, "For Authors");
  assert.equal((await extractMetadata(html, URL_)).author, "Richard Johnston");
  assert.match((await reviewedBy(html, "author")).join(), /navigation's text/);
});

Deno.test("metascraper wrong: a top heading's text is the publisher", async () => {
  const html = `<html><head><title>Budget passes - The Courier</title></head><body>` +
    `<h2 class="logo">Top Stories Today</h2><p>Story.</p></body></html>`;
  assert.equal((await metascraper(html)).publisher, "Top Stories Today");
  assert.equal((await extractMetadata(html, URL_)).siteName, "The Courier");
  assert.match((await reviewedBy(html, "publisher")).join(), /top heading's/);
});

Deno.test("metascraper wrong: no author where the byline holds the name and a date stamp", async () => {
  const html = `<html><body><cite class="byline">By <span class="last">Tariq Panja</span> - ` +
    `<span class="datestamp">2013-07-18T03:00:01Z</span></cite><p>Story.</p></body></html>`;
  assert.equal((await metascraper(html)).author, null);
  assert.equal((await extractMetadata(html, URL_)).author, "Tariq Panja");
  assert.match((await reviewedBy(html, "author")).join(), /byline .* begins with the name/);
});

Deno.test("metascraper wrong: a Dublin Core date (DC.date.issued) is not read", async () => {
  const html = `<html><head><meta name="DC.date.issued" content="2013-07-18"></head>` +
    `<body><p>Story.</p></body></html>`;
  assert.equal((await metascraper(html)).date, null);
  assert.equal((await extractMetadata(html, URL_)).date, "2013-07-18T00:00:00.000Z");
  assert.match((await reviewedBy(html, "date")).join(), /Dublin Core/);
});

Deno.test("metascraper wrong: no description where the page declares none but has a lead paragraph", async () => {
  const lead = "Human rights activists on Friday said rebels have attacked an air base in " +
    "northern Syria but failed to capture it.";
  const html = `<html><head><meta name="description" content=""></head><body><article>` +
    `<p>${lead}</p><p>More.</p></article></body></html>`;
  assert.equal((await metascraper(html)).description, null);
  assert.equal((await extractMetadata(html, URL_)).description, lead);
  assert.match((await reviewedBy(html, "description")).join(), /first paragraph/);
});

Deno.test("metascraper wrong: another story's 140×80 thumbnail is the preview image", async () => {
  const html = `<html><body><div id="content"><ul class="videos"><li>` +
    `<img src="/image/other.jpg" alt="Another story's headline" width="140" height="80"></li>` +
    `</ul><p>Story text without a picture of its own.</p></div></body></html>`;
  assert.equal((await metascraper(html)).image, "https://news.example.com/image/other.jpg");
  assert.equal((await extractMetadata(html, URL_)).image, null);
  assert.match((await reviewedBy(html, "image")).join(), /under 100 px/);
});

Deno.test("the comparison: a doubled '/' in a URL's path is the same address (normalize-url)", () => {
  const page = { name: "p", url: URL_, html: "", fixture: true };
  const at = (image: string) => ({ ...ours().fields(EMPTY, page), image });
  const a = at("http://www.wavy.com//dpp/news/null");
  assert.equal(verdict("image", a, at("http://www.wavy.com/dpp/news/null"), page), "agree");
  assert.equal(verdict("image", a, at("http://www.wavy.com/dpp/other/null"), page), "differ");
});
