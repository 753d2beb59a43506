import assert from "node:assert/strict";
import { parse as parseSelector } from "css-what";
import { COMBINATORS, selectorKey, selectorKeyValue } from "../../../shared/net/selector_key.ts";

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

Deno.test("selectorKeyValue: the value the key attribute must equal, when one does", () => {
  const value = (s: string) => selectorKeyValue(parseSelector(s));
  assert.equal(value("#__nuxt"), "__nuxt");
  assert.equal(value('[data-drupal-selector="drupal-settings-json"]'), "drupal-settings-json");
  assert.equal(value("[ng-version]"), null, "any value");
  assert.equal(value('[class^="x"]'), null, "not an equality");
  assert.equal(value('[id="X" i]'), null, "compared ignoring case");
  assert.equal(value("script#__NEXT_DATA__"), null, "keyed by its tag");
  assert.equal(value("#a, #b"), null);
});

Deno.test("COMBINATORS: the token types of every css-what combinator", () => {
  const types = new Set<string>(parseSelector("a b > c + d ~ e").flat().map((t) => t.type));
  for (const type of ["descendant", "child", "adjacent", "sibling"]) {
    assert.ok(COMBINATORS.has(type) && types.has(type), type);
  }
  assert.ok(!COMBINATORS.has("tag") && !COMBINATORS.has("attribute"));
});
