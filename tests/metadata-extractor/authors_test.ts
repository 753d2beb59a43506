/** Author names (functions/metadata-extractor/authors.ts). */
import assert from "node:assert/strict";
import { cleanAuthor, nameFromProfileUrl } from "../../functions/metadata-extractor/authors.ts";
import { loadChrono } from "../../functions/metadata-extractor/dates.ts";

// cleanAuthor finds a byline's date stamp with chrono, loaded on first need by the extractor.
await loadChrono();

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
  assert.equal(cleanAuthor("CBS/AP/"), "CBS/AP");
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

Deno.test("a byline's text that reads as a sentence is not a name; name particles are", () => {
  assert.equal(
    cleanAuthor("The writer has posted comments on this articleIndu NandakumarIndu Nandakumar"),
    null,
  );
  assert.equal(
    cleanAuthor("Jean de la Fontaine and Ludwig van Beethoven"),
    "Jean de la Fontaine and Ludwig van Beethoven",
  );
  assert.equal(
    cleanAuthor("Salynn Boyles, Contributing Writer"),
    "Salynn Boyles, Contributing Writer",
  );
});
