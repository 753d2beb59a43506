/**
 * Warming the reader while an instance's first page is fetched. V8 compiles a function when it
 * is first called and runs it unoptimised at first, so a new instance's first read spent most
 * of its time compiling and warming the parser and the readable pass (bench/cold_path.ts). A
 * fetch waits on the network for much of its time (over the Internet, for most of it), and one
 * read of a small page run then compiles and warms most of that code meanwhile: the real page
 * is read afterwards, by warm code. The routes start it once per instance, beside the fetch
 * (app.ts); its result is dropped, and it never fails a request.
 */
import { readPage } from "./readable.ts";

/**
 * A small article page with what real pages hold (head metadata, scripts, styles, comments,
 * navigation, lists, a table, a figure, links, references, an inline SVG), so that the read
 * takes the paths a real page takes.
 */
export const WARM_UP_PAGE = `<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Warm-up article &mdash; Example News</title>
<meta name="description" content="A short article."><meta property="og:title" content="Warm-up">
<link rel="stylesheet" href="/site.css"><style>.nav { display: flex } p > a { color: #00f }</style>
<script type="application/ld+json">{"@type":"NewsArticle","headline":"Warm-up article"}</script>
<script>window.dataLayer = window.dataLayer || []; if (a < b && c > d) { go(); }</script>
</head><body class="article-page">
<!-- site header -->
<header id="top"><nav class="nav menu"><ul><li><a href="/">Home</a></li>
<li><a href="/news">News</a></li><li><a href='#main'>Skip</a></li></ul></nav>
<form action=/search><input type=text name=q placeholder="Search"><button>Go</button></form></header>
<main><article class="story"><h1>Warm-up article</h1>
<p class="byline">By <a href="/staff/jane" rel=author>Jane Doe</a>, <time datetime="2026-01-01">Jan 1</time></p>
<figure><img src="/img/a.jpg" alt="A photo" width="640" height="360"><figcaption>A caption.</figcaption></figure>
<p>The first paragraph says what happened, with <em>emphasis</em>, a <strong>strong</strong> word,
a <a href="https://example.org/source">link to a source</a>, and entities: caf&eacute;, &amp;, &#8217;, &nbsp;.</p>
<p>A second paragraph, long enough to count as article text, with commas, clauses, and more words in
it, so that the reader scores it, and its parent, as the body of the story rather than its chrome.</p>
<div><span>An inline run of text in a div,</span> <b>which the reader</b> wraps into a paragraph.</div>
<h2>What comes next</h2><ul><li>One point.</li><li>Another point, with <code>code</code>.</li></ul>
<blockquote><p>A quotation from someone, set apart.</p></blockquote>
<table><thead><tr><th>Year</th><th>Value</th></tr></thead><tbody><tr><td>2025</td><td>1</td></tr>
<tr><td>2026</td><td colspan="1">2</td></tr></tbody></table>
<svg width="10" height="10" viewBox="0 0 10 10"><path d="M0 0L10 10"/></svg>
<p>A last paragraph closes the story.<br>With a line break.</p></article>
<aside class="related sidebar"><h3>Related</h3><ol><li><a href="/a">Another story</a></li></ol></aside>
<div class="comments" hidden><p>A comment.</p></div></main>
<footer class="site-footer"><p>&copy; Example News. <a href="/privacy">Privacy</a></p></footer>
</body></html>`;

let started = false;

/** Reads {@link WARM_UP_PAGE} once per instance (later calls do nothing); never rejects. */
export async function warmUpReader(): Promise<void> {
  if (started) return;
  started = true;
  try {
    await readPage(WARM_UP_PAGE, { url: "https://example.com/news/warm-up" });
  } catch {
    // A warm-up that fails warms less; the requests do not depend on it.
  }
}
