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
