/** The /summary reader's bounded parse and its body shape (functions/ai-summary/tree.ts). */
import assert from "node:assert/strict";
import type { AnyNode, Document, ParentNode } from "domhandler";
import {
  bodyOf,
  DEFAULT_TREE_LIMITS,
  parseTree,
  shapeBody,
  TreeLimitError,
} from "../../functions/ai-summary/tree.ts";
import { parseBrowserTree } from "../../functions/ai-summary/browser_tree.ts";
import { descendants, isElement, textContent } from "../../functions/ai-summary/dom.ts";
import { cooperative } from "../../shared/contract/cooperative.ts";
import { parseHtml } from "../../shared/net/html.ts";
import { domLines } from "../support/dom_lines.ts";

/** Every node's parent, prev and next agree with its parent's children list. */
function assertLinked(root: ParentNode): void {
  const stack: ParentNode[] = [root];
  while (stack.length > 0) {
    const parent = stack.pop()!;
    parent.children.forEach((child: AnyNode, i: number) => {
      assert.equal(child.parent, parent);
      assert.equal(child.prev, parent.children[i - 1] ?? null);
      assert.equal(child.next, parent.children[i + 1] ?? null);
      if (isElement(child)) stack.push(child);
    });
  }
}

/** The names of the top-level nodes and of `<html>`'s children. */
function outline(doc: Document): string {
  const name = (n: AnyNode) => isElement(n) ? n.name : n.type;
  const html = doc.children.find((n) => isElement(n) && n.name === "html") as ParentNode;
  return `${doc.children.map(name).join(",")} | ${html.children.map(name).join(",")}`;
}

Deno.test("parseTree: everything but the head's content is read into one <body>, as a browser does", async () => {
  // [page, body text, head's element children]
  const cases: [string, string, string][] = [
    // Text and elements after a stray </body> and </html>.
    [
      "<html><head><title>t</title></head><body><p>one</p></body><p>two</p></html>three",
      "onetwothree",
      "title",
    ],
    // Content before <body> outside the head, and before <html> (the title is then the body's).
    ["a<html><head><title>t</title></head><div>b</div> <body><p>c</p></body></html>", "atb c", ""],
    // No <body>; no <html> at all (a fragment), with a doctype and a comment before it.
    ["<html><head><title>t</title></head><p>one</p>two</html>", "onetwo", "title"],
    ["<!doctype html><!-- c --><p>one</p><div>two</div>three", "onetwothree", ""],
    // An unclosed <head>: what cannot be in a head closes it, with everything after it.
    ["<html><head><title>t</title><div>one</div><meta name=x></html>", "one", "title"],
    // Head content first, then the page, with no <html>, <head> or <body> tag.
    ["<meta charset=utf-8><title>t</title>\n<article><p>one</p></article>", "one", "meta,title"],
    ["<head><title>t</title></head><p>one</p>", "one", "title"],
  ];
  for (const [html, text, headKids] of cases) {
    const doc = await parseTree(html);
    const body = bodyOf(doc)!;
    assert.equal(body.name, "body", html);
    assert.equal(textContent(body), text, html);
    const root = body.parent as ParentNode;
    assert.deepEqual(root.children.filter(isElement).map((e) => e.name), ["head", "body"], html);
    const head = root.children.find((n) => isElement(n) && n.name === "head") as ParentNode;
    assert.equal(head.children.filter(isElement).map((e) => e.name).join(","), headKids, html);
    assertLinked(doc);
  }
  assert.equal(
    outline(await parseTree("<!doctype html><!-- c --><p>x</p>")),
    "directive,html | head,body",
  );
});

Deno.test("parseTree: a page already in shape is the tree the lean parser builds", async () => {
  const html = "<!doctype html>\n<html lang=en><head><title>t</title><meta charset=utf-8>" +
    "</head>\n<body class=x><main><h1>Head</h1><p>Some <b>text</b>.</p></main>\n</body></html>";
  const shaped = await parseTree(html);
  assert.deepEqual(domLines(shaped), domLines(parseHtml(html)));
  assertLinked(shaped);
});

Deno.test("parseTree: the body's text equals the browser tree's on well-formed pages", async () => {
  const pages = [
    "<html><head><title>A</title></head><body><article><h1>T</h1><p>One &amp; two.</p>" +
    "<ul><li>a</li><li>b</li></ul><table><tbody><tr><td>c</td></tr></tbody></table></article>" +
    "</body></html>",
    "<body><div><p>x<br>y</p><pre> z\n w</pre><!-- c --></div></body>",
  ];
  for (const html of pages) {
    const lean = textContent(bodyOf(await parseTree(html))!);
    assert.equal(lean, textContent(bodyOf(await parseBrowserTree(html))!), html);
  }
});

Deno.test("shapeBody: moved nodes keep their order and their links", () => {
  // A <title> after the body has begun is the body's, as a browser reads it.
  const doc = parseHtml(
    "a<p>b</p><html><i>c</i><head><title>t</title></head>d<body>e</body>f</html>g",
  );
  shapeBody(doc);
  assert.equal(textContent(bodyOf(doc)!), "abctdefg");
  assert.equal(outline(doc), "html | head,body");
  assertLinked(doc);
});

Deno.test("shapeBody: a body of 150,000 children is moved whole, in one pass", () => {
  const doc = parseHtml(`<html><body>${"<p>a</p>".repeat(150_000)}</body><p>b</p></html>`);
  shapeBody(doc);
  const body = bodyOf(doc)!;
  assert.equal(body.children.length, 150_001);
  assert.equal(textContent(body.children[150_000]), "b");
  assertLinked(doc);
});

Deno.test("parseTree: over the depth or node bound is a TreeLimitError naming the bound", async () => {
  const limits = { maxDepth: 50, maxNodes: 500, maxMs: 10_000 };
  await assert.rejects(
    parseTree("<div>".repeat(60), limits),
    (e: unknown) =>
      e instanceof TreeLimitError &&
      e.message === "Page nested too deeply to read: over 50 levels",
  );
  await assert.rejects(
    parseTree("<b></b>".repeat(600), limits),
    (e: unknown) =>
      e instanceof TreeLimitError && e.message === "Page too large to read: over 500 nodes",
  );
  // Texts count: 300 elements with a text each are 600 nodes.
  await assert.rejects(parseTree("<b>x</b>".repeat(300), limits), /over 500 nodes/);
  await parseTree("<div>".repeat(40), limits); // under both
  // The default bound reads 150,000 paragraphs of text (300,000 nodes).
  assert.ok(DEFAULT_TREE_LIMITS.maxNodes > 300_000);
});

Deno.test("both readers' parses let other requests run on a big page, which comes out whole", async () => {
  for (const parse of [parseTree, parseBrowserTree]) {
    let ticks = 0;
    const timer = setInterval(() => ticks++, 0);
    let doc: Document;
    try {
      // 20,000 paragraphs: ~330 KiB, 21 slices. A time slice of 0 ms pauses after every one
      // whatever the machine's speed (with 25 ms a fast machine may parse it all in one slice).
      doc = await parse(
        `<body>${"<p>some words</p>".repeat(20_000)}</body>`,
        { maxDepth: 1024, maxNodes: 1_000_000, maxMs: 60_000 },
        cooperative(0),
      );
    } finally {
      clearInterval(timer);
    }
    assert.ok(ticks >= 3, `${parse.name}: the event loop ran ${ticks} times during the parse`);
    assert.equal(descendants(bodyOf(doc)!, new Set(["p"])).length, 20_000, parse.name);
  }
});

Deno.test("parseTree: its own time is bounded by the yield's budget", async () => {
  await assert.rejects(
    parseTree(
      `<body>${"<p>some words</p>".repeat(50_000)}</body>`,
      { maxDepth: 1024, maxNodes: 1_000_000, maxMs: 60_000 },
      cooperative(0, { endsAt: performance.now() + 1, over: () => new TreeLimitError("spent") }),
    ),
    /spent/,
  );
});
