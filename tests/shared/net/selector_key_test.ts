import assert from "node:assert/strict";
import { parse as parseSelector } from "css-what";
import { COMBINATORS, selectorKey } from "../../../shared/net/selector_key.ts";

Deno.test("selectorKey: what every match of a selector has (its last compound's tag, else an attribute)", () => {
  const key = (s: string) => selectorKey(parseSelector(s));
  assert.equal(key('[class*="date" i]'), "@class");
  assert.equal(key('[itemprop*="author" i] [itemprop="name"]'), "@itemprop");
  assert.equal(key('[class*="author" i] a'), "<a");
  assert.equal(key('a[href*="/author/" i]'), "<a");
  assert.equal(key("#logo"), "@id");
  assert.equal(key(".logo"), "@class");
  assert.equal(key("TIME[datetime]"), "<time");
  assert.equal(key('[rel!="author"]'), null, "an element without rel matches");
  assert.equal(key("a, b"), null);
  assert.equal(key("*"), null);
  assert.equal(key(":not(p)"), null);
});

Deno.test("COMBINATORS: the token types of every css-what combinator", () => {
  const types = new Set<string>(parseSelector("a b > c + d ~ e").flat().map((t) => t.type));
  for (const type of ["descendant", "child", "adjacent", "sibling"]) {
    assert.ok(COMBINATORS.has(type) && types.has(type), type);
  }
  assert.ok(!COMBINATORS.has("tag") && !COMBINATORS.has("attribute"));
});
