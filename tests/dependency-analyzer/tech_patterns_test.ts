/** Pattern strings of the rule set: attributes, bounded quantifiers, literals, versions. */
import assert from "node:assert/strict";
import {
  boundQuantifiers,
  compilePattern,
  execLoading,
  hasAnchor,
  LinearEngineMissing,
  LinearRegex,
  loadLinearEngine,
  maxMatchLength,
  requiredLiterals,
  requiredTexts,
  resolveVersion,
  REWRITES,
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
  assert.deepEqual(requiredLiterals("<[^>]+(?:assets|images)\\.ctfassets"), [
    "assets.ctfassets",
    "images.ctfassets",
  ]);
  assert.deepEqual(requiredLiterals("<[^>]+(?:assets|images)\\.(?:a|b)"), ["assets.", "images."]);
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

Deno.test("maxMatchLength: the longest match, Infinity when unbounded or unknown", () => {
  const most = (s: string) => maxMatchLength(boundQuantifiers(s));
  assert.equal(most(`<div[^>]+class=["']wp-block-*`), 4 + 250 + 7 + 8 + 250);
  assert.equal(most("a(?:bc|d)?e"), 4);
  assert.equal(most("x{2,5}y{3}"), 8);
  assert.equal(most("(?:a|bb)+"), 500);
  assert.equal(most("(?<n>ab)c\\u00e9\\x41[\\]a]\\b^$"), 6);
  assert.equal(most("a|bcd"), 3);
  for (const unbounded of ["x{2,}", "(a)\\1", "(?<n>a)\\k<n>", "a(?=b)", "(?<!a)b", "a)b"]) {
    assert.equal(most(unbounded), Infinity, unbounded);
  }
});

Deno.test("required literals: a group of plain alternatives joined to the text after it", () => {
  // `feed` alone let this pattern run over most of a feed page (the 500 KiB bench page has 767).
  assert.deepEqual(requiredLiterals("<(?:link|script)[^>]+(?:feed|components)/com_"), [
    "feed/com_",
    "components/com_",
  ]);
  assert.deepEqual(requiredLiterals("(?:a|s)\\.adroll\\.com"), ["a.adroll.com", "s.adroll.com"]);
  // Not plain text after the group: its own literals.
  assert.deepEqual(requiredLiterals("(?:themes|modules)[/.]x"), ["themes", "modules"]);
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

Deno.test("re2js loads when a pattern first must compile on it, not before", async () => {
  // The first test of this file that needs the engine: the import is still to come.
  const pattern = new LinearRegex("(?:foo\\d+)+bar", true);
  assert.equal(pattern.exec("foo1foo2"), null, "its needs rule the text out: nothing to compile");
  assert.throws(() => pattern.exec("foo1bar"), LinearEngineMissing);
  const loading = execLoading(pattern, "foo1bar");
  assert.ok(loading instanceof Promise);
  assert.equal((await loading)?.[0], "foo1bar");
  const now = execLoading(pattern, "xfoo12foo3bar");
  assert.ok(!(now instanceof Promise), "then at once");
  assert.equal(now?.[0], "foo12foo3bar");
});

Deno.test("rewritten look-ahead patterns detect what the originals did (re2js, or V8 where linear)", async () => {
  await loadLinearEngine();
  // Not covered, on purpose: `leaflet.js/shopify/a.js` (the original finds a later `.js` end
  // that shopify does not follow; the rewrite rules the URL out).
  const urls = [
    "https://cdn.aniview.com/x.js",
    "https://player.aniview.com/x.js",
    "https://cdn.aniview.com/player/x.js",
    "https://unpkg.com/leaflet@1.9.4/dist/leaflet.js",
    "https://x.test/1.9.4/dist/leaflet-src.js",
    "https://x.test/leaflet.js?ver=1.7.1",
    "https://cdn.shopify.com/s/files/leaflet.js?shopify",
    "https://x.test/3.7.1/jquery.min.js",
    "https://x.test/3.7.1/jquery.popupoverlay.js",
    "https://x.test/3.7.1/jquery.fancybox.min.js",
    "https://x.test/3.7.1/jquery-ui.js",
    "https://x.test/wp-content/plugins/woocommerce/assets/js/frontend/woocommerce.min.js?ver=8.1.0",
    "https://x.test/wp-content/plugins/foo/js/integrations/woocommerce.js?ver=1.2",
    "https://x.test/wp-content/plugins/foo/js/integrations/woocommerce.js",
    "https://x.test/woocommerce-blocks.js",
  ];
  for (const source of Object.keys(REWRITES)) {
    const original = new RegExp(source, "i");
    const linear = new LinearRegex(source);
    let matched = 0;
    for (const url of urls) {
      const m = original.exec(url);
      const n = linear.exec(url);
      assert.equal(n !== null, m !== null, `${source} on ${url}`);
      if (m && n) {
        matched++;
        // The groups that give versions are the same.
        assert.deepEqual(n.slice(1), m.slice(1), `${source} on ${url}: groups`);
      }
    }
    assert.ok(matched > 0, `${source} matched none of the examples`);
  }
});

Deno.test("anchors: ^ and $ outside classes, not a class's own ^ nor an escaped one", () => {
  for (const anchored of ["^foo", "foo$", "(?:^|/)foo", "[^>]+foo$", "[\\]]^x", "[^]^x"]) {
    assert.ok(hasAnchor(anchored), anchored);
  }
  for (const free of ["<link[^>]+foo", "a\\^b", "a\\$", "[$^]x", "[\\]^]x", "[^^$]"]) {
    assert.ok(!hasAnchor(free), free);
  }
});

Deno.test("required texts: two characters count, what all spellings share, per alternative", () => {
  // `.js` alone is in every script URL; `p5` and `dc` rule most of them out before re2js runs.
  assert.deepEqual(
    requiredTexts("(?:((?:\\d+\\.)+\\d+)\\/(?:addons\\/)?)?p5(?:\\.sound)?(?:\\.min)?\\.js"),
    [["p5", ".js"]],
  );
  assert.deepEqual(requiredTexts("(?:/|-)dc(?:\\.leaflet)?\\.js|Dc-x"), [
    ["/dc", ".js"],
    ["-dc", ".js"],
    ["dc-x"],
  ]);
  assert.equal(requiredTexts("p5?\\.js|[ab]"), null, "an alternative without any");
  // A run of several spellings: what they all share, the longer of their start and end.
  assert.deepEqual(requiredTexts("wss?://x"), [["s://x"]]);
  assert.deepEqual(requiredTexts("<a[^>]+>Django ?([\\d.]+)?<\\/a>"), [["<a", ">django", "</a>"]]);
  assert.deepEqual(requiredTexts("a?b"), null, "nothing shared");
  // A required group taken once: one branch per alternative, the alternative in its place (an
  // optional group needs nothing).
  assert.deepEqual(
    requiredTexts("/\\d+/jquery(?:\\.popupoverlay\\.js|(?:\\.[\\w-]*)*fancybox)"),
    [["/jquery.popupoverlay.js"], ["/jquery", "fancybox"]],
  );
  assert.deepEqual(
    requiredTexts(
      "<[^>]+/(?:sys_master|hybr|_ui/(?:.*responsive/)?(?:desktop|common(?:/images|/img|/css|ico)?))/",
    ),
    [["/sys_master/"], ["/hybr/"], ["/_ui/", ["desktop", "common"]]],
    "not merely one of sys_master, hybr, desktop, common",
  );
  assert.deepEqual(requiredTexts("jq(?:uery|ry)?x"), [["jq"]]);
  assert.deepEqual(requiredTexts("(?:/|-)dc(?:\\.leaflet)?\\.js"), [["/dc", ".js"], [
    "-dc",
    ".js",
  ]]);
  assert.deepEqual(requiredTexts("(?:a|b)cd+e"), [["acd"], ["bcd"]]);
  assert.deepEqual(requiredTexts("(?:a|)bc"), [["abc"], ["bc"]]);
  assert.deepEqual(requiredTexts("x(?:a|b[c])yz"), [["xayz"], ["xb", "yz"]]);
  // A repeated group is not spread (`(?:a|b)+` may take both).
  assert.deepEqual(requiredTexts("(?:a|b)+cd"), [["cd"]]);
  assert.deepEqual(requiredTexts("(?:/|-)+dc\\.js"), [["dc.js"]]);
  assert.equal(requiredTexts("(?:a|b)c?d"), null, "c is optional: a or b alone is too short");
});
