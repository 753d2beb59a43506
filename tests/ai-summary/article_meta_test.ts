/** The article's metadata as Readability reads it: JSON-LD, then meta tags. */
import assert from "node:assert/strict";
import { articleMeta, firstParagraph } from "../../functions/ai-summary/article_meta.ts";
import { parseBrowserTree } from "../../functions/ai-summary/browser_tree.ts";

Deno.test("articleMeta: JSON-LD first (authors joined with 'and', publisher), then meta tags", async () => {
  const doc = await parseBrowserTree(
    `<html lang="fr"><head><meta name="author" content="Meta Author">` +
      `<meta property="og:site_name" content="OG Site"><meta property="og:description" content="OG desc">` +
      `<meta property="article:published_time" content="2024-01-02">` +
      `<script type="application/ld+json">{"@graph":[{"@type":"WebSite","name":"x"},` +
      `{"@type":["NewsArticle"],"author":[{"name":"A"},{"name":"B"},{"name":"C"}],` +
      `"publisher":{"@type":"Organization","name":"The Paper"},"datePublished":"2024-01-01T10:00:00Z"}]}</script>` +
      `</head><body><p>x</p></body></html>`,
  );
  assert.deepEqual(await articleMeta(doc), {
    byline: "A, B and C",
    siteName: "The Paper",
    lang: "fr",
    publishedTime: "2024-01-01T10:00:00Z",
    excerpt: "OG desc",
  });
});

Deno.test("articleMeta: meta tags alone; a profile URL is not a name; broken JSON-LD is ignored", async () => {
  const doc = await parseBrowserTree(
    `<html><head><meta http-equiv="content-language" content="de">` +
      `<meta property="article:author" content="https://facebook.example/someone">` +
      `<meta name="parsely-author" content="Jo Doe"><meta name="description" content="  Plain \n desc ">` +
      `<meta name="parsely-pub-date" content="2023-05-06"><script type="application/ld+json">{oops</script>` +
      `</head><body></body></html>`,
  );
  assert.deepEqual(await articleMeta(doc), {
    byline: "Jo Doe",
    siteName: null,
    lang: "de",
    publishedTime: "2023-05-06",
    excerpt: "Plain desc",
  });
});

Deno.test("firstParagraph: the first paragraph with text", async () => {
  const doc = await parseBrowserTree(
    `<div><p> </p><p>First  real\nparagraph.</p><p>Second.</p></div>`,
  );
  assert.equal(firstParagraph(doc), "First real paragraph.");
  assert.equal(firstParagraph(null), null);
});
