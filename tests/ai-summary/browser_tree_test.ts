/** /read's bounded browser-grade parse (functions/ai-summary/browser_tree.ts). */
import assert from "node:assert/strict";
import { parseBrowserTree } from "../../functions/ai-summary/browser_tree.ts";
import { bodyOf, readerYield, TreeLimitError } from "../../functions/ai-summary/tree.ts";
import { descendants, textContent } from "../../functions/ai-summary/dom.ts";
import { Parser } from "parse5";
import { adapter } from "parse5-htmlparser2-tree-adapter";
import type { Document } from "domhandler";
import { domLines } from "../support/dom_lines.ts";

/** The tree stock parse5 and its htmlparser2 adapter build. */
function stockTree(html: string): Document {
  const parser = new Parser({ treeAdapter: adapter });
  parser.tokenizer.write(html, true);
  return parser.document as unknown as Document;
}

Deno.test("parseBrowserTree: builds the tree a browser builds (stray </html>, misnesting, tables)", async () => {
  const doc = await parseBrowserTree(
    "<p>one</html><p>two<table><tr><td>cell</td></tr>stray</table><b><i>x</b>y</i>",
  );
  const body = bodyOf(doc)!;
  assert.equal(body.name, "body");
  assert.equal(textContent(body), "onetwostraycellxy", "foster-parented text before the table");
  assert.deepEqual(descendants(body).map((e) => e.name).slice(0, 3), ["p", "p", "table"]);
});

Deno.test("parseBrowserTree: large pages are read in slices and come out whole", async () => {
  const html = `<body>${"<p>word</p>".repeat(30_000)}</body>`;
  const doc = await parseBrowserTree(html, { maxDepth: 1024, maxNodes: 1_000_000, maxMs: 60_000 });
  assert.equal(descendants(bodyOf(doc)!, new Set(["p"])).length, 30_000);
});

Deno.test("parseBrowserTree: over the depth or node bound is a TreeLimitError naming the bound", async () => {
  const limits = { maxDepth: 50, maxNodes: 500, maxMs: 10_000 };
  await assert.rejects(
    parseBrowserTree("<div>".repeat(60), limits),
    (e: unknown) => e instanceof TreeLimitError && /over 50 levels/.test(e.message),
  );
  await assert.rejects(parseBrowserTree("<b></b>".repeat(600), limits), /over 500 nodes/);
  await parseBrowserTree("<div>".repeat(40), limits); // under both
});

Deno.test("readerYield: time spent paused while other work runs is not counted, its own work is", async () => {
  const busy = (ms: number) => {
    const end = performance.now() + ms;
    while (performance.now() < end) { /* work */ }
  };
  // Budgets far above a loaded machine's scheduling hiccups (tens of ms).
  const counted = readerYield(200);
  busy(100); // its own work: a slice has passed, so the next yield pauses
  const other = setTimeout(() => busy(300), 0); // another request's slice, run in that pause
  await counted();
  clearTimeout(other);
  await counted(); // 100 ms of its own, under 200

  const plain = readerYield(200);
  busy(300);
  await assert.rejects(
    plain(),
    (e: unknown) =>
      e instanceof TreeLimitError && e.message === "Page too complex to read: took over 200 ms",
  );
});

Deno.test("parseBrowserTree: the tree of stock parse5 and its adapter, foreign attributes included", async () => {
  const pages = [
    "<!doctype html><html lang=en><body class=a><p id=x title='t'>one<b>two</p>three",
    "<svg viewBox='0 0 1 1' xmlns:xlink='http://www.w3.org/1999/xlink'><use xlink:href='#a' " +
    "xml:lang=en /><foreignObject><p>html</p></foreignObject></svg><math definitionURL=x></math>",
    "<html a=1><body b=2><html c=3 a=4><body d=5 b=6>adopted attributes",
    "<table><tr><td a=1>cell</td></tr><b>foster</b></table><template><i>t</i></template>",
    '<a href="x&amp;y">l</a><!-- c --><img src=i.png alt="">',
  ];
  for (const html of pages) {
    assert.deepEqual(domLines(await parseBrowserTree(html)), domLines(stockTree(html)), html);
  }
  const use = descendants(bodyOf(await parseBrowserTree(pages[1]))!, new Set(["use"]))[0];
  assert.deepEqual(use.attributes.find((a) => a.name === "href"), {
    name: "href",
    value: "#a",
    namespace: "http://www.w3.org/1999/xlink",
    prefix: "xlink",
  });
});
