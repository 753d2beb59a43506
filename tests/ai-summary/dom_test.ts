/** The reader's DOM helpers (functions/ai-summary/dom.ts): iterative walks and safe mutations. */
import assert from "node:assert/strict";
import {
  descendants,
  detach,
  hasAncestor,
  innerText,
  insert,
  replace,
  textContent,
} from "../../functions/ai-summary/dom.ts";
import { bodyOf, parseTree } from "../../functions/ai-summary/tree.ts";

Deno.test("textContent and descendants walk 100,000 levels without recursion", async () => {
  // Built by hand: the parser would refuse this depth.
  const { Element, Text } = await import("domhandler");
  const root = new Element("div", {}, []);
  let at = root;
  for (let i = 0; i < 100_000; i++) {
    const child = new Element("div", {}, []);
    insert(at, child);
    at = child;
  }
  insert(at, new Text("bottom"));
  assert.equal(textContent(root), "bottom");
  assert.equal(descendants(root).length, 100_000);
  assert.ok(hasAncestor(at, "div"));
});

Deno.test("insert, detach and replace keep parent and sibling links right", async () => {
  const body = bodyOf(await parseTree("<p id=a>A</p><p id=b>B</p><p id=c>C</p>"))!;
  const [a, b, c] = descendants(body, new Set(["p"]));
  detach(b);
  assert.equal(a.next, c);
  assert.equal(c.prev, a);
  assert.equal(b.parent, null);
  insert(body, b, a);
  assert.equal(innerText(body), "BAC");
  assert.equal(b.next, a);
  replace(a, c);
  assert.equal(innerText(body), "BC");
  assert.equal(b.next, c);
  assert.equal(c.next, null);
});
