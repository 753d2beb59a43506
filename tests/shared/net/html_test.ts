import assert from "node:assert/strict";
import {
  attr,
  documentBase,
  parseHtml,
  readableText,
  resolveUrl,
  select,
  selectFirst,
  text,
} from "../../../shared/net/html.ts";

const PAGE = `<!doctype html><html lang="en"><head><title> Hello &amp; welcome </title>
<base href="/sub/"><script>var x = "<b>not text</b>";</script><style>p{}</style></head>
<body><nav>Menu</nav><main><h1>Title</h1><p>First <b>para</b>.</p><img src="a.png" alt="">
<p>Second&nbsp;para</p></main><footer>Footer</footer><template>hidden</template></body></html>`;

Deno.test("parseHtml + select read elements, attributes and decoded text", () => {
  const doc = parseHtml(PAGE);
  assert.equal(text(selectFirst(doc, "title")), "Hello & welcome");
  assert.equal(select(doc, "p").length, 2);
  assert.equal(attr(selectFirst(doc, "img"), "src"), "a.png");
  assert.equal(attr(selectFirst(doc, "img"), "alt"), null, "empty attributes read as null");
  assert.equal(attr(selectFirst(doc, "html"), "lang"), "en");
});

Deno.test("readableText skips scripts, styles, templates and the tags asked for", () => {
  const doc = parseHtml(PAGE);
  assert.equal(readableText(doc), "Menu Title First para. Second para Footer");
  assert.equal(readableText(doc, ["nav", "footer"]), "Title First para. Second para");
});

Deno.test("documentBase honours <base href> and resolveUrl makes URLs absolute", () => {
  const doc = parseHtml(PAGE);
  const base = documentBase(doc, "https://example.com/page/index.html");
  assert.equal(base, "https://example.com/sub/");
  assert.equal(resolveUrl("a.png", base), "https://example.com/sub/a.png");
  assert.equal(resolveUrl("//cdn.test/x.js", base), "https://cdn.test/x.js");
  assert.equal(resolveUrl("http://[bad", base), null);
  assert.equal(resolveUrl(null, base), null);
});

Deno.test("malformed markup parses without throwing", () => {
  const doc = parseHtml("<div><p>unclosed <b>bold <i>both</div></p><<>>");
  assert.ok(text(doc).includes("unclosed"));
});
