/** The article sanitiser: an allow-list on the parse5 tree, URLs resolved and checked. */
import assert from "node:assert/strict";
import type { Element } from "domhandler";
import { articleHtml, safeUrl, sanitize } from "../../functions/ai-summary/clean_html.ts";
import { parseBrowserTree } from "../../functions/ai-summary/browser_tree.ts";
import { bodyOf, readerYield } from "../../functions/ai-summary/tree.ts";

async function clean(html: string, base = "https://news.example/a/story"): Promise<string> {
  const body = bodyOf(await parseBrowserTree(html)) as Element;
  const yieldSoon = readerYield();
  return await articleHtml(await sanitize(body, base, yieldSoon), yieldSoon);
}

Deno.test("sanitize: scripts, styles, embeds and forms go with their content; handlers and styles go", async () => {
  const out = await clean(
    `<p onclick="x()" style="color:red" class="lead" id="p1">Hi <b onmouseover="y()">there</b></p>` +
      `<script>bad()</script><style>p{}</style><iframe src="https://e.example/"></iframe>` +
      `<form><input value="v"><button>Go</button></form><svg><script>bad()</script></svg>` +
      `<math><mi>x</mi></math><template><p>t</p></template><noscript><p>n</p></noscript><!-- note -->`,
  );
  assert.equal(out, "<p>Hi <b>there</b></p>");
});

Deno.test("sanitize: unknown elements are unwrapped, their text kept", async () => {
  assert.equal(
    await clean(`<custom-card><font>Kept</font> <marquee>text</marquee></custom-card>`),
    "Kept text",
  );
});

Deno.test("sanitize: links and images keep http(s) addresses only, made absolute", async () => {
  const out = await clean(
    `<a href="/b">rel</a><a href="javascript:x()">js</a><a href="  jav&#x09;ascript:x()">tab</a>` +
      `<a href="data:text/html,<b>">data</a><a href="mailto:a@b.example">mail</a><a href="#s2">frag</a>` +
      `<img src="vbscript:x"><img src="pic.png" alt="P" onerror="x()"><img data-src="/lazy.png" src="data:image/gif;base64,AA">`,
  );
  assert.equal(
    out,
    `<a href="https://news.example/b">rel</a><a>js</a><a>tab</a><a>data</a>` +
      `<a href="mailto:a@b.example">mail</a><a href="#s2">frag</a>` +
      `<img src="https://news.example/a/pic.png" alt="P"><img src="https://news.example/lazy.png">`,
  );
});

Deno.test("sanitize: a code block keeps its language class and its white space; text is escaped", async () => {
  const out = await clean(
    `<pre class="x"><code class="hljs language-ts">let a =  1;\n  a &lt; 2</code></pre><p>a   &lt;b&gt;\n c</p>`,
  );
  assert.equal(
    out,
    `<pre><code class="language-ts">let a =  1;\n  a &lt; 2</code></pre><p>a &lt;b&gt; c</p>`,
  );
});

Deno.test("safeUrl: only http(s), and mailto for links", () => {
  assert.equal(safeUrl("https://x.example/", undefined, false), "https://x.example/");
  assert.equal(safeUrl("mailto:a@b.example", undefined, false), null);
  assert.equal(safeUrl("JAVASCRIPT:alert(1)", "https://x.example/", true), null);
  assert.equal(safeUrl("java\nscript:alert(1)", "https://x.example/", true), null);
  assert.equal(
    safeUrl("//cdn.example/i.png", "https://x.example/", false),
    "https://cdn.example/i.png",
  );
  assert.equal(safeUrl("/rel", undefined, true), null, "relative without a base");
});

Deno.test("sanitize: 150,000 siblings to unwrap or remove are one pass each list, not a splice each", async () => {
  const html = `<div>${"<x-a>word</x-a><form>f</form><img src=/i.png>".repeat(50_000)}</div>`;
  const body = bodyOf(
    await parseBrowserTree(html, { maxDepth: 1024, maxNodes: 1_000_000, maxMs: 60_000 }),
  );
  const started = performance.now();
  const yieldSoon = readerYield(60_000);
  const out = await articleHtml(
    await sanitize(body as Element, "https://x.test/", yieldSoon),
    yieldSoon,
  );
  const took = performance.now() - started;
  assert.equal(out, `<div>${'word<img src="https://x.test/i.png">'.repeat(50_000)}</div>`);
  // Spliced one by one (a search and a copy of the list each) it took minutes; linear, it is
  // the order of the parse itself. Compared with the parse of the same page in this run.
  const parsedAt = performance.now();
  await parseBrowserTree(html, { maxDepth: 1024, maxNodes: 1_000_000, maxMs: 60_000 });
  const parse = performance.now() - parsedAt;
  assert.ok(took < parse * 5, `sanitize ${took.toFixed(0)} ms, parse ${parse.toFixed(0)} ms`);
});
