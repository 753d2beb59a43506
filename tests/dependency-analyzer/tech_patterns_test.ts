/** Pattern strings of the rule set: attributes, bounded quantifiers, literals, versions. */
import assert from "node:assert/strict";
import {
  boundQuantifiers,
  compilePattern,
  requiredLiterals,
  resolveVersion,
} from "../../functions/dependency-analyzer/tech_patterns.ts";

Deno.test("attributes after \\; give the version template and the confidence", () => {
  const p = compilePattern("jquery[.-]([\\d.]*\\d)[^/]*\\.js\\;version:\\1\\;confidence:50")!;
  assert.equal(p.version, "\\1");
  assert.equal(p.confidence, 50);
  const m = p.regex.exec("https://x.test/jquery-3.7.1.min.js")!;
  assert.equal(resolveVersion(p.version, m), "3.7.1");
  assert.equal(compilePattern("(")!, null, "an invalid regex is skipped, not thrown");
});

Deno.test("only real quantifiers are bounded (wappalyzer-core also rewrote [+*] and \\*)", () => {
  assert.equal(boundQuantifiers("a+b*"), "a{1,250}b{0,250}");
  assert.equal(boundQuantifiers("[+*]\\*\\+"), "[+*]\\*\\+");
  assert.ok(compilePattern("\\*\\+")!.regex.test("*+"));
});

Deno.test("required literals: longest run, per alternative, through a required group", () => {
  assert.deepEqual(requiredLiterals("/wp-(?:content|includes)/"), ["/wp-"]);
  assert.deepEqual(requiredLiterals("googletagmanager\\.com/gtm\\.js"), ["googletagmanager"]);
  assert.deepEqual(requiredLiterals("(?:foo\\.js|barbaz)"), ["foo.js", "barbaz"]);
  assert.deepEqual(requiredLiterals("<[^>]+(?:assets|images)\\.ctfassets"), [".ctfassets"]);
  assert.deepEqual(requiredLiterals("<[^>]+(?:assets|images)\\.(?:a|b)"), ["assets", "images"]);
  assert.equal(requiredLiterals("ab|c"), null, "an alternative without a literal");
  assert.deepEqual(
    requiredLiterals("jquerys?\\.js"),
    ["jquery.js", "jquerys.js"],
    "both spellings",
  );
  assert.deepEqual(requiredLiterals("jquerys*\\.js"), ["jquery"], "a repeated char ends a run");
  // A long literal keeps its most telling 16 characters, not the markup every page has.
  assert.deepEqual(requiredLiterals('<a href="http://www\\.tsoft\\.com\\.tr" target'), [
    "www.tsoft.com.tr",
  ]);
});

Deno.test("required literals: the one fewest pages hold, not markup every page has", () => {
  // Each of these ran over all of a 500 KiB page (its literal was `class="`, `href=`...).
  assert.deepEqual(requiredLiterals('<[^>]+class="[^"]*(?:uk-container|uk-section)'), [
    "uk-container",
    "uk-section",
  ]);
  assert.deepEqual(requiredLiterals(`<div class=["']dynamicDiv["'] id=["']dd\\.\\d`), [
    "dynamicdiv",
  ]);
  assert.deepEqual(requiredLiterals(`<(?:link|a)[^>]+href=["']wss?://`), ["ws://", "wss://"]);
  assert.deepEqual(
    requiredLiterals('<[^>]+ class ?= ?"(?:e-control|[^"]+ e-control)(?: )[^"]* e-lib\\b'),
    ["e-control", " e-control"],
  );
});

Deno.test("version templates: back references and the ternary form", () => {
  const m = /(\d+)(beta)?/.exec("12")!;
  assert.equal(resolveVersion("\\1", m), "12");
  assert.equal(resolveVersion("\\2?pre:stable", m), "stable");
  assert.equal(resolveVersion("\\1.\\3", m), "12.", "an unmatched reference is removed");
  assert.equal(resolveVersion("", m), "");
});
