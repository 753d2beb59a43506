/** Statistics of an HTML page, as one would count them in the Elements panel. */
import assert from "node:assert/strict";
import { scanPage } from "../../functions/devtools-inspector/page_scan.ts";
import { pageStats } from "../../functions/devtools-inspector/page_stats.ts";

/** The doctype a page's scan finds. */
const doctypeOf = async (html: string) => (await scanPage(html)).doctype;

Deno.test("every count, with data blocks left out of the scripts", async () => {
  const html = `<!DOCTYPE html>
<html lang="fr"><head><title> Café
  &amp; co </title>
<link rel="stylesheet" href="a.css"><link rel="Preload StyleSheet" href="b.css">
<link rel="icon" href="i.png">
<style>p{color:red}</style>
<script>const é = 1;</script>
<script type="module" src="/m.js"></script>
<script type="application/ld+json">{"@type":"Thing"}</script>
<script type="importmap">{"imports":{}}</script>
</head><body>
<img src="a.png" alt=""><img src="b.png"><picture><img src="c.png" alt="c"></picture>
<a href="/x">x</a><a name="anchor">no href</a><map><area href="/y"></map>
<form><input></form><iframe src="/f"></iframe>
</body></html>`;
  assert.deepEqual(pageStats(await scanPage(html), 1234, "utf-8"), {
    bytes: 1234,
    doctype: "html",
    title: "Café & co",
    lang: "fr",
    charset: "utf-8",
    elements: 23,
    scripts: 2,
    externalScripts: 1,
    inlineScripts: 1,
    stylesheets: 2,
    inlineStyles: 1,
    images: 3,
    imagesWithoutAlt: 1, // alt="" marks a decorative image: that is fine
    links: 2,
    forms: 1,
    iframes: 1,
    inlineScriptBytes: 13, // "const é = 1;" with é as two UTF-8 bytes
    inlineStyleBytes: 12,
  });
});

Deno.test("doctypes: none, HTML5, and a legacy public identifier", async () => {
  assert.equal(await doctypeOf("<p>no doctype"), null);
  assert.equal(await doctypeOf("<!doctype HTML><p>"), "HTML");
  assert.equal(
    await doctypeOf(
      '<!DOCTYPE html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN"\n ' +
        '"http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"><html></html>',
    ),
    'html PUBLIC "-//W3C//DTD XHTML 1.0 Strict//EN" "http://www.w3.org/TR/xhtml1/DTD/xhtml1-strict.dtd"',
  );
});

Deno.test("an empty or text-only document gives zeros and nulls, not a crash", async () => {
  const stats = pageStats(await scanPage("just words"), 10, "windows-1252");
  assert.equal(stats.elements, 0);
  assert.equal(stats.title, null);
  assert.equal(stats.lang, null);
  assert.equal(stats.doctype, null);
  assert.equal(stats.charset, "windows-1252");
});
