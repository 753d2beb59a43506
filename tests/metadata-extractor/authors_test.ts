/** Author names (functions/metadata-extractor/authors.ts). */
import assert from "node:assert/strict";
import { cleanAuthor, nameFromProfileUrl } from "../../functions/metadata-extractor/authors.ts";

Deno.test("cleanAuthor: 'By', labels and trailing date stamps go", () => {
  assert.equal(cleanAuthor("By George Jahn"), "George Jahn");
  assert.equal(cleanAuthor("  by:  Jane   Doe "), "Jane Doe");
  assert.equal(cleanAuthor("Written by Ann Lee"), "Ann Lee");
  assert.equal(
    cleanAuthor("Jeff Gluck, USA TODAY Sports 4:52 p.m. EDT May 15, 2013"),
    "Jeff Gluck, USA TODAY Sports",
  );
  assert.equal(cleanAuthor("unionwv wrote:"), "unionwv");
  assert.equal(cleanAuthor("@dvergano"), "dvergano");
  assert.equal(
    cleanAuthor("TOM MAHON, Staff Writer mahont@phillynews.com"),
    "TOM MAHON, Staff Writer mahont@phillynews.com",
  );
});

Deno.test("cleanAuthor: URLs, domains, hashtags, dates and paragraphs are not names", () => {
  for (
    const v of [
      "http://paidcontent.org/author/jeffjohnroberts/",
      "https://www.facebook.com/jane",
      "CBSNews.com",
      "#evandashevsky",
      "June 06, 2013 12:00 AM",
      "x".repeat(101),
      "   ",
    ]
  ) assert.equal(cleanAuthor(v), null, v);
});

Deno.test("nameFromProfileUrl: the last path segment as a name", () => {
  assert.equal(nameFromProfileUrl("http://ftw.usatoday.com/author/dan-shanoff/"), "Dan Shanoff");
  assert.equal(nameFromProfileUrl("https://www.facebook.com/jane.doe"), "Jane Doe");
  assert.equal(nameFromProfileUrl("https://example.com/users/12345"), null);
  assert.equal(nameFromProfileUrl("https://example.com/about.html"), null);
  assert.equal(nameFromProfileUrl("not a url"), null);
});
