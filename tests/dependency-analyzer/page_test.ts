/** Page analysis details the fixtures do not pin down. */
import assert from "node:assert/strict";
import { analyzePage } from "../../functions/dependency-analyzer/page.ts";

const PAGE = "https://www.example.com/blog/post.html";

Deno.test("URLs resolve against <base href>; third party is judged against the page's host", async () => {
  const r = await analyzePage(
    `<base href="https://static.example.com/assets/">
     <script src="app.js"></script>
     <link rel="stylesheet" href="//cdn.other.net/x.css">
     <iframe src="../embed.html"></iframe>`,
    PAGE,
  );
  assert.deepEqual(r.scripts.map((s) => [s.src, s.host, s.thirdParty]), [
    ["https://static.example.com/assets/app.js", "static.example.com", false],
  ]);
  assert.deepEqual(r.stylesheets.map((s) => [s.href, s.thirdParty]), [
    ["https://cdn.other.net/x.css", true],
  ]);
  assert.equal(r.iframes[0].src, "https://static.example.com/embed.html");
});

Deno.test("data blocks are not scripts; JavaScript MIME types and modules are", async () => {
  const r = await analyzePage(
    `<script type="application/ld+json">{}</script>
     <script type="text/template"><p></p></script>
     <script type="importmap">{"imports":{}}</script>
     <script type="speculationrules">{}</script>
     <script type="text/javascript; charset=utf-8">a()</script>
     <script type="application/x-javascript">b()</script>
     <script type="MODULE" src="/m.js" async></script>
     <script>é</script>`,
    PAGE,
  );
  assert.deepEqual(r.scripts.map((s) => [s.type, s.module, s.async, s.size]), [
    ["text/javascript; charset=utf-8", false, false, 3],
    ["application/x-javascript", false, false, 3],
    ["MODULE", true, true, null],
    [null, false, false, 2], // "é" is two UTF-8 bytes
  ]);
  assert.equal(r.summary.inlineScriptBytes, 8);
});

Deno.test("resource hints: each rel token counted once per element, other rels ignored", async () => {
  const r = await analyzePage(
    `<link rel="preconnect dns-prefetch" href="https://fonts.gstatic.com">
     <link rel="Preload" href="/f.woff2" as="font" crossorigin>
     <link rel="icon" href="/favicon.ico">
     <link rel="preload stylesheet" href="/s.css" as="style">`,
    PAGE,
  );
  assert.deepEqual(r.preloads.map((p) => [p.rel, p.href, p.crossorigin]), [
    ["preconnect dns-prefetch", "https://fonts.gstatic.com/", null],
    ["preload", "https://www.example.com/f.woff2", ""],
    ["preload", "https://www.example.com/s.css", null],
  ]);
  assert.equal(r.stylesheets.length, 1);
});

Deno.test("a broken import map is skipped with a warning; non-string targets too", async () => {
  const warnings: string[] = [];
  const r = await analyzePage(
    `<script type="importmap">{"imports": {"a": "/a.js",}}</script>
     <script type="importmap">{"imports": {"b": 1, "c": "lodash", "d": "./d.js"}}</script>`,
    PAGE,
    (m) => warnings.push(m),
  );
  assert.deepEqual(r.importMap.map((e) => [e.specifier, e.url]), [
    ["c", null], // a bare target is invalid in an import map
    ["d", "https://www.example.com/blog/d.js"],
  ]);
  assert.deepEqual(warnings, [
    "Skipped an import map that is not valid JSON",
    'Import map entry "b" has a non-string target',
  ]);
});

Deno.test("SRI is counted on third-party scripts only; data: URLs have no host", async () => {
  const r = await analyzePage(
    `<script src="https://cdn.other.net/a.js" integrity="sha384-x"></script>
     <script src="https://cdn.other.net/b.js"></script>
     <script src="/own.js"></script>
     <script src="data:text/javascript,1"></script>`,
    PAGE,
  );
  assert.equal(r.summary.thirdPartyScripts, 2);
  assert.equal(r.summary.thirdPartyScriptsWithoutSri, 1);
  assert.deepEqual(r.scripts[3].host, null);
  assert.deepEqual(r.hosts.map((h) => [h.host, h.thirdParty, h.total]), [
    ["cdn.other.net", true, 2],
    ["www.example.com", false, 1],
  ]);
});

Deno.test("a <base href> that is not http(s) is ignored; an unresolvable src stays external", async () => {
  const r = await analyzePage(
    `<base href="javascript:void(0)"><script src="a.js"></script><script src="http://[bad"></script>`,
    PAGE,
  );
  assert.deepEqual(r.scripts.map((s) => [s.src, s.inline]), [
    ["https://www.example.com/blog/a.js", false],
    [null, false],
  ]);
  assert.equal(r.summary.inlineScripts, 0);
});

/**
 * Libraries a file-name rule misses or misnames (no version in the URL; versions only in tags,
 * headers or cookies), on one page with headers and cookies.
 */
const UNVERSIONED_PAGE = `<!doctype html><html><head>
<meta name="generator" content="Divi v.4.9.4">
<link rel="preconnect" href="https://fonts.gstatic.com" crossorigin>
<link rel="stylesheet" href="https://maxcdn.bootstrapcdn.com/font-awesome/4.7.0/css/font-awesome.min.css">
<link rel="stylesheet" href="https://use.typekit.net/abc1def.css">
<script src="/wp-includes/js/jquery/jquery.min.js?ver=3.7.1"></script>
<script src="/wp-includes/js/jquery/jquery-migrate.min.js?ver=3.3.2"></script>
<script src="/javascripts/bootstrap.min.js"></script>
<script src="/js/modernizr-v2.7.1.min.js"></script>
<script src="/js/jquery.min.1.8.2.js"></script>
<script data-main="/js/main" src="/js/require-2.1.2.js"></script>
<script src="/js/jquery-ui.min.js"></script>
<script src="/static/wf-2.0.1-modern.js"></script>
<script src="/static/desktop-v1.2.0.js"></script>
<script>(function(w,d,s,l,i){w[l]=w[l]||[];w[l].push({'gtm.start':new Date().getTime(),event:'gtm.js'});
var f=d.getElementsByTagName(s)[0],j=d.createElement(s);j.async=true;
j.src='https://www.googletagmanager.com/gtm.js?id='+i;f.parentNode.insertBefore(j,f);
})(window,document,'script','dataLayer','GTM-ABC123');</script>
<script src="https://www.google-analytics.com/analytics.js"></script>
<script>!function(f,b,e,v,n,t,s){n=f.fbq=function(){};t.src=v}(window, document,'script',
'https://connect.facebook.net/en_US/fbevents.js');fbq('init', '123');</script>
<script src="https://static.hotjar.com/c/hotjar-123.js?sv=6"></script>
</head><body>
<noscript><iframe src="https://www.googletagmanager.com/ns.html?id=GTM-ABC123" height="0" width="0"></iframe></noscript>
<div id="root"><div data-reactroot=""></div></div>
</body></html>`;

Deno.test("libraries without versions in their file names, tags, headers, cookies", async () => {
  const headers = new Headers({ "server": "nginx/1.24.0", "x-powered-by": "PHP/8.2.1" });
  const r = await analyzePage(UNVERSIONED_PAGE, "https://shop.example.com/", () => {}, {
    headers,
    setCookies: ["_hjSessionUser_123=abc; Path=/", "PHPSESSID=xyz; Path=/"],
  });
  const found = new Map(r.libraries.map((l) => [l.name, l]));
  for (
    const name of [
      "jQuery",
      "jQuery Migrate",
      "Bootstrap",
      "Modernizr",
      "RequireJS",
      "jQuery UI",
      "Google Tag Manager",
      "Google Analytics",
      "Facebook Pixel",
      "Hotjar",
      "Font Awesome",
      "Adobe Fonts",
      "Google Font API",
      "React",
      "Nginx",
      "PHP",
    ]
  ) assert.ok(found.has(name), `${name} missing from ${[...found.keys()].join(", ")}`);
  // Names a version-in-file-name rule misparses (a plugin slug read as a library).
  const versions = (name: string) =>
    r.libraries.filter((l) => l.name === name).map((l) => l.version);
  assert.ok(versions("jQuery").includes("1.8.2"), `jQuery ${versions("jQuery")}`);
  assert.deepEqual(versions("Modernizr"), ["2.7.1"]);
  assert.deepEqual(versions("RequireJS"), ["2.1.2"]);
  assert.equal(found.get("Nginx")!.version, "1.24.0");
  // No site bundles or themes as libraries, and no misparsed names.
  for (const name of ["wf", "desktop", "jquery.min", "modernizr-v2", "require"]) {
    assert.ok(!found.has(name), `${name} reported`);
  }
  // A theme the rule set knows is reported as what it is, not as a library.
  assert.ok(found.get("Divi")!.categories.includes("WordPress themes"));
  // Every result says what it is and why.
  for (const lib of r.libraries) {
    assert.ok(lib.evidence.length > 0, lib.name);
    assert.ok(lib.confidence > 0 && lib.confidence <= 100, lib.name);
  }
  assert.deepEqual(found.get("Google Tag Manager")!.categories, ["Tag managers"]);
  const server = found.get("Nginx")!.evidence[0];
  assert.deepEqual([server.source, server.value], ["headers:server", "nginx/1.24.0"]);
  assert.ok(found.get("Hotjar")!.evidence.some((e) => e.source === "scriptSrc"));
});

Deno.test("a page deeper than the parse limit is 502 PARSE_ERROR, not a stack overflow", async () => {
  await assert.rejects(
    () => analyzePage(`<body>${"<div>".repeat(20_000)}</body>`, PAGE),
    (err: unknown) =>
      err instanceof Error && "code" in err && err.code === "PARSE_ERROR" &&
      /deeper than 1024 levels/.test(err.message),
  );
});
