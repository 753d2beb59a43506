/** The readable pass and body sniffing of ai-summary, on small pages and the article fixtures. */
import assert from "node:assert/strict";
import { mainText, pageTitle } from "../../functions/ai-summary/readable.ts";
import { bodyKind, plainText } from "../../functions/ai-summary/page_text.ts";
import { parseHtml } from "../../shared/net/html.ts";

const fixture = (name: string) =>
  parseHtml(Deno.readTextFileSync(new URL(`../fixtures/articles/${name}`, import.meta.url)));

Deno.test("pageTitle: the <title> trimmed and collapsed; null when absent, empty or only in SVG", () => {
  assert.equal(pageTitle(fixture("solar_sails.html")), "How Solar Sails Work");
  assert.equal(pageTitle(fixture("untitled.html")), null);
  assert.equal(pageTitle(parseHtml("<title>   </title><p>x</p>")), null);
  assert.equal(pageTitle(parseHtml("<title>A &amp;\n  B</title>")), "A & B");
});

Deno.test("mainText: <main> is preferred and page chrome is left out", () => {
  const text = mainText(fixture("solar_sails.html"));
  assert.ok(text.startsWith("How Solar Sails Work\nBy A. Writer, 3 March 2024\nA solar sail is"));
  assert.ok(text.endsWith("send tiny probes toward nearby stars."));
  assert.ok(!/cookies|Space Notes|newsletter|Related|Copyright|analytics/.test(text), text);
});

Deno.test("mainText: without landmarks, the body minus nav, footers, hidden and menu blocks", () => {
  assert.equal(
    mainText(fixture("no_landmarks.html")),
    "Plain Page\nThis page has no main element and no article element at all.\n" +
      "Its readable text is what is left of the body once navigation, scripts and footers are gone.",
  );
});

Deno.test("mainText: a single <article> is preferred; several are a listing and read in full", () => {
  const one = parseHtml(
    "<body><div>Intro text of the site.</div><article><p>The story itself, long enough " +
      "to be the page's main text by far.</p></article></body>",
  );
  assert.equal(mainText(one), "The story itself, long enough to be the page's main text by far.");
  const listing = parseHtml(
    "<body><article><p>First post.</p></article><article><p>Second post.</p></article></body>",
  );
  assert.equal(mainText(listing), "First post.\nSecond post.");
});

Deno.test("mainText: a <main> with too small a share of the text falls back to the body", () => {
  const doc = parseHtml(
    `<body><main><p>Hi.</p></main><div><p>${"Real content sits outside main here. ".repeat(5)}` +
      "</p></div></body>",
  );
  assert.ok(mainText(doc).startsWith("Hi.\nReal content"));
});

Deno.test("mainText: inline elements join words, blocks break lines, source wraps are spaces", () => {
  const doc = parseHtml(
    "<body><p>One <b>bold</b>\n   word.</p><p>Two<br>lines</p><script>x</script></body>",
  );
  assert.equal(mainText(doc), "One bold word.\nTwo\nlines");
  assert.equal(mainText(fixture("empty_body.html")), "");
});

Deno.test("bodyKind: by content type, else by sniffing", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assert.equal(bodyKind("text/html", bytes("")), "html");
  assert.equal(bodyKind("application/xhtml+xml", bytes("")), "html");
  assert.equal(bodyKind("text/plain", bytes("")), "text");
  assert.equal(bodyKind("text/markdown", bytes("")), "text");
  assert.equal(bodyKind("application/json", bytes("{}")), "text");
  assert.equal(bodyKind("application/ld+json", bytes("{}")), "text");
  assert.equal(bodyKind("image/png", bytes("")), "binary");
  assert.equal(bodyKind("application/pdf", bytes("%PDF")), "binary");
  assert.equal(bodyKind(null, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0])), "binary");
  assert.equal(bodyKind(null, bytes("  <!DOCTYPE html><p>x")), "html");
  assert.equal(bodyKind(null, bytes("just words")), "text");
});

Deno.test("plainText: white space collapsed within lines, blank lines and BOM dropped", () => {
  assert.equal(plainText("\uFEFF  a   b \r\n\r\n\t c\n"), "a b\nc");
});
