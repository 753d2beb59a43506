/** The pure extractor: each fallback order, normalisation, and what the page's markup can break. */
import assert from "node:assert/strict";
import { extractMetadata } from "../../functions/metadata-extractor/extract.ts";
import { ApiError, isApiError } from "../../shared/contract/errors.ts";
import { FALLBACK_ORDER } from "../../functions/metadata-extractor/fields.ts";
import { PageMetadataSchema } from "../../functions/metadata-extractor/schema.ts";

const AT = "https://site.test/blog/post.html";

/** A page with `head` markup in <head> and `body` in <body>. */
function page(head: string, body = ""): string {
  return `<!doctype html><html><head>${head}</head><body>${body}</body></html>`;
}

function ld(value: unknown): string {
  return `<script type="application/ld+json">${JSON.stringify(value)}</script>`;
}

Deno.test("title falls back og → twitter → JSON-LD headline → <title> → first <h1>", async () => {
  const layers = [
    `<meta property="og:title" content="OG">`,
    `<meta name="twitter:title" content="Twitter">`,
    ld({ "@type": "Article", headline: "Headline" }),
    `<title>Title</title>`,
  ];
  const expected = ["OG", "Twitter", "Headline", "Title", "Heading"];
  for (let i = 0; i < expected.length; i++) {
    const m = await extractMetadata(
      page(layers.slice(i).join(""), "<h1></h1><h1> Heading </h1>"),
      AT,
    );
    assert.equal(m.title, expected[i]);
  }
  assert.equal((await extractMetadata(page(""), AT)).title, null);
});

Deno.test("a blank source is skipped, not taken", async () => {
  const m = await extractMetadata(
    page(`<meta property="og:title" content="   "><title>Real</title>`),
    AT,
  );
  assert.equal(m.title, "Real");
});

Deno.test("values are trimmed, white space collapsed and entities decoded (JSON-LD too)", async () => {
  const m = await extractMetadata(
    page(
      `<meta name="description" content="  Fish &amp;\n\n chips &#8211; &eacute;  ">` +
        ld({ "@type": "Article", headline: "Q&amp;A &lt;live&gt;" }),
    ),
    AT,
  );
  assert.equal(m.description, "Fish & chips – é");
  assert.equal(m.title, "Q&A <live>");
});

Deno.test("description falls back og → twitter → meta description → JSON-LD", async () => {
  const m = await extractMetadata(
    page(`<meta name="description" content="Meta">` + ld({ description: "LD" })),
    AT,
  );
  assert.equal(m.description, "Meta");
  assert.equal((await extractMetadata(page(ld({ description: "LD" })), AT)).description, "LD");
});

Deno.test("every URL resolves against <base href>, itself resolved against the final URL", async () => {
  const m = await extractMetadata(
    page(
      `<base href="../assets/"><base href="/ignored/">` +
        `<link rel="canonical" href="page.html"><meta property="og:image" content="a.png">` +
        `<link rel="icon" href="i.ico"><meta name="twitter:image" content="t.png">`,
    ),
    AT,
  );
  assert.equal(m.canonical, "https://site.test/assets/page.html");
  assert.equal(m.image?.url, "https://site.test/assets/a.png");
  assert.equal(m.favicon, "https://site.test/assets/i.ico");
  assert.equal(m.twitter["twitter:image"], "https://site.test/assets/t.png");
  assert.equal(m.openGraph["og:image"], "https://site.test/assets/a.png");
});

Deno.test("og:image sizes and alt belong to the image they follow", async () => {
  const m = await extractMetadata(
    page(
      `<meta property="og:image:width" content="10">` + // before any image: starts one without URL
        `<meta property="og:image" content="/one.png">` +
        `<meta property="og:image" content="/two.png"><meta property="og:image:width" content="640">` +
        `<meta property="og:image:height" content="480px"><meta property="og:image:alt" content=" Two ">`,
    ),
    AT,
  );
  assert.deepEqual(m.image, {
    url: "https://site.test/one.png",
    width: null,
    height: null,
    alt: null,
  });
  assert.deepEqual(m.openGraph["og:image"], [
    "https://site.test/one.png",
    "https://site.test/two.png",
  ]);
  const only = await extractMetadata(
    page(
      `<meta property="og:image:url" content="/u.png"><meta property="og:image:width" content="640">`,
    ),
    AT,
  );
  assert.deepEqual(only.image, {
    url: "https://site.test/u.png",
    width: 640,
    height: null,
    alt: null,
  });
});

Deno.test("image falls back to twitter:image, then JSON-LD ImageObject with its size", async () => {
  const tw = await extractMetadata(
    page(
      `<meta name="twitter:image:src" content="/t.jpg"><meta name="twitter:image:alt" content="T">`,
    ),
    AT,
  );
  assert.deepEqual(tw.image, {
    url: "https://site.test/t.jpg",
    width: null,
    height: null,
    alt: "T",
  });
  const fromLd = await extractMetadata(
    page(
      ld({
        "@type": "Article",
        image: [{
          "@type": "ImageObject",
          url: "/ld.jpg",
          width: { value: 800 },
          height: "600",
          caption: "Cap",
        }],
      }),
    ),
    AT,
  );
  assert.deepEqual(fromLd.image, {
    url: "https://site.test/ld.jpg",
    width: 800,
    height: 600,
    alt: "Cap",
  });
});

Deno.test("a broken JSON-LD block is skipped with a warning; the others still count", async () => {
  const m = await extractMetadata(
    page(
      `<script type="application/ld+json">{"headline": "broken",}</script>` +
        `<script type="application/ld+json"> </script>` +
        `<script type="application/ld+json"><!-- {"@type":"Article","headline":"Wrapped"} --></script>`,
    ),
    AT,
  );
  assert.equal(m.title, "Wrapped");
  assert.equal(m.jsonLd.length, 1);
  assert.deepEqual(m.warnings, [
    "JSON-LD block 1 is not valid JSON; skipped",
    "JSON-LD block 2 is empty; skipped",
  ]);
});

Deno.test("JSON-LD @graph references are followed for author, publisher and logo", async () => {
  const m = await extractMetadata(
    page(ld({
      "@context": "https://schema.org",
      "@graph": [
        { "@type": "WebSite", "@id": "#site", name: "Site Name" },
        {
          "@type": "NewsArticle",
          headline: "H",
          author: [{ "@id": "#a" }, { "@id": "#b" }, { name: "Ann" }],
          publisher: { "@id": "#org" },
        },
        { "@type": "Person", "@id": "#a", name: "Ann" },
        { "@type": "Person", "@id": "#b", name: "Bob" },
        {
          "@type": "Organization",
          "@id": "#org",
          name: "Org",
          logo: { "@type": "ImageObject", url: "/logo.png" },
        },
      ],
    })),
    AT,
  );
  assert.equal(m.author, "Ann and Bob");
  assert.equal(m.siteName, "Org");
  assert.equal(m.logo, "https://site.test/logo.png");
  assert.equal(m.type, "NewsArticle"); // the node with the headline, not the WebSite
});

Deno.test("author: a profile URL in article:author is not a name", async () => {
  const m = await extractMetadata(
    page(
      `<meta property="article:author" content="https://site.test/u/ann">`,
      `<a rel="author" href="/u/ann"> Ann  Lee </a>`,
    ),
    AT,
  );
  assert.equal(m.author, "Ann Lee");
  assert.equal(m.openGraph["article:author"], "https://site.test/u/ann");
});

Deno.test("lang: <html lang>, then content-language, then og:locale written as a BCP 47 tag", async () => {
  assert.equal(
    (await extractMetadata(`<html lang="pt-BR"><title>x</title></html>`, AT)).lang,
    "pt-BR",
  );
  assert.equal(
    (await extractMetadata(page(`<meta http-equiv="Content-Language" content="nl, en">`), AT)).lang,
    "nl",
  );
  assert.equal(
    (await extractMetadata(page(`<meta property="og:locale" content="en_GB">`), AT)).lang,
    "en-GB",
  );
  assert.equal(
    (await extractMetadata(
      `<html lang="not a tag!"><meta property="og:locale" content="fr_FR"></html>`,
      AT,
    )).lang,
    "fr-FR",
  );
});

Deno.test("type defaults to website, as Open Graph says of unmarked pages", async () => {
  assert.equal((await extractMetadata(page("<title>x</title>"), AT)).type, "website");
  assert.equal((await extractMetadata("", AT)).type, "website");
});

Deno.test("keywords: split, trimmed, de-duplicated; article:tag when there is no keywords meta", async () => {
  assert.deepEqual(
    (await extractMetadata(page(`<meta name="keywords" content=" a, b ,, a,c d ">`), AT)).keywords,
    ["a", "b", "c d"],
  );
  assert.deepEqual(
    (await extractMetadata(
      page(`<meta property="article:tag" content="x"><meta property="article:tag" content="y">`),
      AT,
    )).keywords,
    ["x", "y"],
  );
  assert.deepEqual((await extractMetadata(page(ld({ keywords: "p, q" })), AT)).keywords, [
    "p",
    "q",
  ]);
});

Deno.test("favicon: largest raster rel=icon, else SVG, else apple-touch-icon, else /favicon.ico", async () => {
  const fav = async (head: string) => (await extractMetadata(page(head), AT)).favicon;
  assert.equal(
    await fav(
      `<link rel="icon" href="/a.svg"><link rel="icon" sizes="16x16" href="/16.png"><link rel="icon" sizes="48x48 96x96" href="/multi.ico">`,
    ),
    "https://site.test/multi.ico",
  );
  assert.equal(
    await fav(`<link rel="icon" href="/a.svg"><link rel="icon" href="/b.png">`),
    "https://site.test/a.svg",
  );
  assert.equal(
    await fav(
      `<link rel="apple-touch-icon" sizes="120x120" href="/120.png"><link rel="apple-touch-icon" sizes="180x180" href="/180.png">`,
    ),
    "https://site.test/180.png",
  );
  assert.equal(await fav(`<link rel="SHORTCUT ICON" href="/s.ico">`), "https://site.test/s.ico");
  assert.equal(await fav(""), "https://site.test/favicon.ico");
});

Deno.test("feeds, oEmbed and hreflang alternates are told apart from other alternate links", async () => {
  const m = await extractMetadata(
    page(
      `<link rel="alternate" type="application/json" href="/wp-json/wp/v2/pages/2">` + // an API, not a feed
        `<link rel="alternate" type="text/xml+oembed" href="/o.xml">` +
        `<link rel="alternate" type="application/json+oembed" href="/o.json" title="O">` +
        `<link rel="alternate" type="application/rss+xml" href="/rss">` +
        `<link rel="alternate" hreflang="de" href="/de/">`,
    ),
    AT,
  );
  assert.deepEqual(m.feeds, [{
    url: "https://site.test/rss",
    format: "rss",
    type: "application/rss+xml",
    title: null,
  }]);
  assert.deepEqual(m.oembed, { url: "https://site.test/o.json", format: "json", title: "O" });
  assert.deepEqual(m.alternates, [{ hreflang: "de", url: "https://site.test/de/" }]);
});

Deno.test("theme-color: the one without a media query wins", async () => {
  const m = await extractMetadata(
    page(
      `<meta name="theme-color" media="(prefers-color-scheme: dark)" content="#000"><meta name="theme-color" content="#fff">`,
    ),
    AT,
  );
  assert.equal(m.themeColor, "#fff");
});

Deno.test("an SVG <title> is not the page title; scripts and templates hold no metadata", async () => {
  const m = await extractMetadata(
    `<html><body><svg><title>Icon</title></svg><template><meta property="og:title" content="T"></template>` +
      `<script>document.write('<meta property="og:title" content="S">')</script><h1>Body</h1></body></html>`,
    AT,
  );
  assert.equal(m.title, "Body");
  assert.deepEqual(m.openGraph, {});
});

Deno.test("microdata itemprop values are read from content, datetime, src and text", async () => {
  const m = await extractMetadata(
    page(
      "",
      `<time itemprop="datePublished" datetime="2020-01-02">Jan 2</time><span itemprop="author">Kim</span><img itemprop="image" src="/m.png">`,
    ),
    AT,
  );
  assert.equal(m.publishedTime, "2020-01-02T00:00:00.000Z");
  assert.deepEqual(m.rawDates, { published: "2020-01-02", modified: null });
  assert.equal(m.author, "Kim");
  assert.equal(m.image?.url, "https://site.test/m.png");
});

Deno.test("hostile markup never throws and always gives a result of the declared shape", async () => {
  const inputs = [
    "",
    "<<<>>>",
    "<html",
    "<meta property=og:image content='http://[bad'><link rel=icon href='http://[bad'><base href='http://[x'>",
    `<script type="application/ld+json">${"[".repeat(5000)}</script>`,
    "<h1>" + "<b>".repeat(1000) + "deep",
    ld({ "@graph": "not a list", author: { "@id": "#missing" }, image: 42 }),
  ];
  for (const html of inputs) {
    const m = await extractMetadata(html, AT);
    assert.ok(PageMetadataSchema.safeParse(m).success, html.slice(0, 40));
  }
});

Deno.test("markup nested deeper than the parse limit is 502 PARSE_ERROR, not a stack overflow", async () => {
  await assert.rejects(
    () => extractMetadata("<h1>" + "<b>".repeat(2000) + "deep", AT),
    (err: unknown) =>
      err instanceof ApiError && err.code === "PARSE_ERROR" &&
      err.message === "Page nests elements deeper than 1024 levels",
  );
});

Deno.test("the fallback table documents every normalised field", () => {
  assert.deepEqual(Object.keys(FALLBACK_ORDER).sort(), [
    "author",
    "canonical",
    "description",
    "image",
    "keywords",
    "lang",
    "logo",
    "modifiedTime",
    "publishedTime",
    "siteName",
    "themeColor",
    "title",
    "type",
  ]);
  assert.deepEqual(FALLBACK_ORDER.title, [
    "og:title",
    "twitter:title",
    "JSON-LD headline",
    "<title>",
    "first <h1>",
  ]);
});

Deno.test("dates: ISO 8601 UTC, what the page wrote in rawDates, and date = modified else published", async () => {
  const both = await extractMetadata(
    page(
      `<meta property="article:published_time" content="Mon, Jan 7 2019 15:37:00 EST">` +
        `<meta property="article:modified_time" content="April 06, 2019 12:00 ET">`,
    ),
    AT,
  );
  assert.equal(both.publishedTime, "2019-01-07T20:37:00.000Z");
  assert.equal(both.modifiedTime, "2019-04-06T16:00:00.000Z");
  assert.equal(both.date, both.modifiedTime);
  assert.deepEqual(both.rawDates, {
    published: "Mon, Jan 7 2019 15:37:00 EST",
    modified: "April 06, 2019 12:00 ET",
  });
  const published = await extractMetadata(page(ld({ dateCreated: "2016-04-25 23:37:17" })), AT);
  assert.equal(published.date, "2016-04-25T23:37:17.000Z");
  // A source that does not parse gives way to the next; a time alone is not a date.
  const body = await extractMetadata(
    page(`<meta name="date" content="8:38 pm">`, `<p class="byline">By Kim Lee, June 6, 2013</p>`),
    AT,
  );
  assert.equal(body.publishedTime, "2013-06-06T12:00:00.000Z");
  assert.equal(body.author, "Kim Lee");
});

Deno.test("author: cleaned, and a profile URL gives way to a name, or becomes one", async () => {
  const named = await extractMetadata(
    page(
      `<meta name="author" content="http://paidcontent.org/author/jeffjohnroberts/">`,
      `<a rel="author" href="/u/j">By Jeff John Roberts</a>`,
    ),
    AT,
  );
  assert.equal(named.author, "Jeff John Roberts");
  const fromUrl = await extractMetadata(
    page(`<meta property="article:author" content="https://news.test/author/dan-shanoff/">`),
    AT,
  );
  assert.equal(fromUrl.author, "Dan Shanoff");
});

Deno.test("siteName: a hyphen inside a word is not the title's separator", async () => {
  for (const title of ["Spider-Man returns", "Covid-19 -", "Well-known-"]) {
    assert.equal((await extractMetadata(page(`<title>${title}</title>`), AT)).siteName, null);
  }
  const long = page(`<title>${"a-".repeat(200_000)}</title>`);
  assert.equal((await extractMetadata(long, AT)).siteName, null);
});

Deno.test("siteName: the organisation JSON-LD names beats og:site_name's host or section brand", async () => {
  const cases: [string, string, string][] = [
    ["NPR.org", "NPR", "NPR"],
    ["BBC News", "BBC", "BBC"],
    ["BostonGlobe.com", "The Boston Globe", "The Boston Globe"],
  ];
  for (const [og, org, expected] of cases) {
    const head = `<meta property="og:site_name" content="${og}">` +
      ld({ "@type": "NewsArticle", publisher: { "@type": "Organization", name: org } });
    assert.equal((await extractMetadata(page(head), AT)).siteName, expected, og);
  }
  // Nothing declared beyond the host: the host is the name (metascraper: "NYTimes.com" too).
  const host = page(`<meta property="og:site_name" content="NYTimes.com">`);
  assert.equal((await extractMetadata(host, AT)).siteName, "NYTimes.com");
  const formerly = page(`<meta property="og:site_name" content="X (formerly Twitter)">`);
  assert.equal((await extractMetadata(formerly, AT)).siteName, "X");
});

Deno.test("several JSON-LD authors read as a byline: A, B and C", async () => {
  const names = (list: string[]) =>
    page(ld({ "@type": "Article", author: list.map((name) => ({ "@type": "Person", name })) }));
  assert.equal((await extractMetadata(names(["Ann Lee"]), AT)).author, "Ann Lee");
  assert.equal(
    (await extractMetadata(names(["Ann Lee", "Bob Day"]), AT)).author,
    "Ann Lee and Bob Day",
  );
  assert.equal(
    (await extractMetadata(names(["Ann Lee", "Bob Day", "Cy Roe"]), AT)).author,
    "Ann Lee, Bob Day and Cy Roe",
  );
});

Deno.test("image: og:image:secure_url, when HTTPS, is the og:image shown", async () => {
  const head = `<meta property="og:image" content="http://cdn.test/a.jpg">` +
    `<meta property="og:image:secure_url" content="https://cdn.test/a.jpg">`;
  assert.equal((await extractMetadata(page(head), AT)).image?.url, "https://cdn.test/a.jpg");
  const notHttps = `<meta property="og:image" content="http://cdn.test/a.jpg">` +
    `<meta property="og:image:secure_url" content="http://cdn.test/b.jpg">`;
  assert.equal((await extractMetadata(page(notHttps), AT)).image?.url, "http://cdn.test/a.jpg");
});

Deno.test("siteName falls back to JSON-LD publisher, application-name, the logo's alt, the title's suffix", async () => {
  const cases: [string, string, string][] = [
    [
      ld({ "@type": "NewsArticle", publisher: { "@type": "Organization", name: "Daily" } }),
      "",
      "Daily",
    ],
    [`<meta name="application-name" content="App Name">`, "", "App Name"],
    [
      "<title>Story</title>",
      `<div class="site-logo"><img src="/l.png" alt="Logo Co"></div>`,
      "Logo Co",
    ],
    ["<title>A story - The Courier</title>", "", "The Courier"],
    // A dash the site's name follows, written without the space before it (metascraper reads it so).
    ["<title>Xbox One requirements- The Inquirer</title>", "", "The Inquirer"],
  ];
  for (const [head, body, expected] of cases) {
    assert.equal((await extractMetadata(page(head, body), AT)).siteName, expected, expected);
  }
});

Deno.test("image falls back to JSON-LD, image_src, twitter:image:src, the article's lead <img>", async () => {
  const cases: [string, string, string][] = [
    [ld({ "@type": "Article", image: "/ld.jpg" }), "", "https://site.test/ld.jpg"],
    [`<link rel="image_src" href="/src.jpg">`, "", "https://site.test/src.jpg"],
    [`<meta name="twitter:image:src" content="/tw.jpg">`, "", "https://site.test/tw.jpg"],
    [
      "",
      `<img src="/icons/mail.png"><article><img src="/i/logo_small.png"><img src="/ads/x.gif">` +
      `<img src="/tiny.jpg" width="20"><img src="/photo.jpg"></article>`,
      "https://site.test/photo.jpg",
    ],
  ];
  for (const [head, body, expected] of cases) {
    assert.equal((await extractMetadata(page(head, body), AT)).image?.url, expected, expected);
  }
  assert.equal((await extractMetadata(page("", `<img src="/icons/mail.png">`), AT)).image, null);
});

Deno.test("description falls back to the first real paragraph; double-encoded entities decoded", async () => {
  const long = "A real paragraph of the article that says what it is about, at some length. "
    .repeat(2);
  const m = await extractMetadata(
    page(
      "",
      `<nav><p>${
        "Menu text that is long enough to count as a paragraph of words. ".repeat(2)
      }</p></nav>` +
        `<p>We use cookies to give you the best experience on our website, see our policy.</p>` +
        `<article><p>Short caption.</p><p>${long}</p></article>`,
    ),
    AT,
  );
  assert.equal(m.description, long.trim());
  const encoded = await extractMetadata(
    page(`<meta name="description" content="Nigeria&amp;rsquo;s capital &amp;#39;x&amp;#39;">`),
    AT,
  );
  assert.equal(encoded.description, "Nigeria’s capital 'x'");
  // A twice-encoded no-break space is white space like any other: trimmed, collapsed.
  const spaced = await extractMetadata(
    page(
      `<meta name="description" content="It paid off.&amp;nbsp; HT&amp;nbsp;&amp;nbsp;reports.&amp;nbsp;">`,
    ),
    AT,
  );
  assert.equal(spaced.description, "It paid off. HT reports.");
});

Deno.test("a body rule reads its first 20 matching elements (a page of thousands of non-dates is not read through)", async () => {
  const times = (invalid: number) =>
    page(
      "",
      `${'<time datetime="soon">soon</time>'.repeat(invalid)}<time datetime="2021-05-06">x</time>`,
    );
  assert.equal((await extractMetadata(times(19), AT)).publishedTime, "2021-05-06T00:00:00.000Z");
  assert.equal((await extractMetadata(times(20), AT)).publishedTime, null);
});

Deno.test("extractMetadata: past its time budget, 502 PARSE_ERROR naming the bound", async () => {
  const { largePage } = await import("../support/parse_bounds.ts");
  const html = largePage(3_000);
  const whole = await extractMetadata(html, "https://x.test/");
  assert.equal(whole.title, "big", "within the default budget it reads the page");
  await assert.rejects(
    extractMetadata(html, "https://x.test/", 1),
    (e) => {
      assert.ok(isApiError(e));
      assert.equal(e.code, "PARSE_ERROR");
      assert.match(e.message, /^Page took longer than 1 ms to (parse|read)$/);
      return true;
    },
  );
});
