/**
 * Where /metadata and metascraper disagree on real pages and metascraper is the one that is
 * wrong (the METASCRAPER_WRONG rules of bench/metadata.ts): each kind shown on a small page,
 * both tools run on the same HTML. metascraper is a benchmark dependency only (bench/deno.json), so this runs with
 * `deno task test:bench` (and in CI), not with `deno task test`.
 */
import assert from "node:assert/strict";
import { extractMetadata } from "../functions/metadata-extractor/extract.ts";

// As in bench/metadata.ts: skip the native re2 attempt (must be set before helpers load).
Deno.env.set("METASCRAPER_RE2", "false");

const URL_ = "https://news.example.com/2013/07/story";

async function metascraper(html: string): Promise<Record<string, string | null>> {
  const { default: create } = await import("metascraper");
  const rules = await Promise.all(
    ["author", "date", "description", "image", "lang"].map((n) => import(`metascraper-${n}`)),
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
