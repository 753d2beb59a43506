/** The rule data file, its compilation at build time and its loading. */
import assert from "node:assert/strict";
import {
  buildTechRules,
  type CompiledPattern,
  compileRuleData,
  compileTechRules,
  foldName,
  loadTechRules,
  type TechRules,
} from "../../functions/dependency-analyzer/tech_rules.ts";
import {
  linearNeeds,
  loadLinearEngine,
} from "../../functions/dependency-analyzer/tech_patterns.ts";

Deno.test("the whole rule set loads once, every pattern compiled, with a prefilter for nearly all", async () => {
  const rules = await loadTechRules();
  assert.equal(await loadTechRules(), rules, "compiled once, shared");
  assert.ok(rules.size > 5_000, `${rules.size} technologies`);
  assert.equal(rules.skipped, 0);
  for (const [signal, set] of Object.entries(rules.text)) {
    assert.ok(
      set.unindexed <= 0.02 * set.size,
      `${signal}: ${set.unindexed} of ${set.size} unindexed`,
    );
  }
  // Every implied, excluded and required name exists, and every name is found by its name.
  for (let i = 0; i < rules.size; i++) {
    const tech = rules.tech(i);
    assert.equal(rules.indexOf(tech.name), i);
    for (const name of [...tech.implies.map((i) => i.name), ...tech.excludes, ...tech.requires]) {
      assert.ok(rules.indexOf(name) !== undefined, `${tech.name} names unknown ${name}`);
    }
  }
});

Deno.test("the data file's form survives JSON: loading it gives what compiling gives", () => {
  const raw = {
    "A": {
      cats: [1, 2],
      html: ['<div id="a-app"', "(?:foo-lib|bar-lib)\\.js\\;version:\\1\\;confidence:50", "a|"],
      meta: { Generator: "^A ([\\d.]+)\\;version:\\1" },
      cookies: { "a_session": "" },
      implies: ["B\\;confidence:40\\;version:2"],
      excludes: "C",
    },
    "B": { cats: [2], scriptSrc: "/b\\.js", url: "(", requires: "A", requiresCategory: 1 },
    "C": {},
  };
  const categories = { "1": { name: "CMS" }, "2": { name: "Widgets" } };
  const data = compileRuleData(raw, categories);
  assert.equal(data.skipped, 1, "the invalid regex");
  const loaded = buildTechRules(JSON.parse(JSON.stringify(data)));
  const compiled = compileTechRules(raw, categories);
  assert.deepEqual(snapshot(loaded), snapshot(compiled));
  assert.deepEqual(loaded.tech(0).implies, [{ name: "B", confidence: 40, version: "2" }]);
  assert.deepEqual(loaded.tech(1).requiresCategory, ["CMS"]);
  const [plain, alternatives, none] = loaded.text.html.all();
  assert.deepEqual([plain.literals, plain.version, plain.confidence], [
    ['<div id="a-app"'],
    "",
    100,
  ]);
  assert.deepEqual(alternatives.literals, ["foo-lib.js", "bar-lib.js"]);
  assert.deepEqual([alternatives.version, alternatives.confidence], ["\\1", 50]);
  assert.equal(none.literals, null);
  assert.deepEqual(loaded.keyed.meta.keys(), ["generator"]);
  assert.equal(loaded.keyed.cookies.get("a_session")![0].source, "");
});

/** What a rule set holds, built out in full (its objects are built on first use). */
function snapshot(rules: TechRules) {
  const pattern = (p: CompiledPattern) => ({ ...p, linear: p.linear, anchored: p.anchored });
  return {
    techs: Array.from({ length: rules.size }, (_, i) => rules.tech(i)),
    text: Object.entries(rules.text).map(([signal, set]) => [signal, set.all().map(pattern)]),
    keyed: Object.entries(rules.keyed).map(([signal, set]) => [
      signal,
      set.keys().map((key) => [key, set.get(key)!.map(pattern)]),
    ]),
    skipped: rules.skipped,
  };
}

Deno.test("patterns and technologies are built on first use, once; lookups by name and folded name", () => {
  const rules = compileTechRules({
    "Next.js": { html: ["__next_data__", "<x-(?:alpha|beta)-app", "^<!doctype"], meta: { a: "x" } },
    "jQuery": { scriptSrc: "jquery[.-]([\\d.]*\\d)\\.js\\;version:\\1" },
    "jquery": { url: "jquery\\.example" },
    "Zepto": {},
  }, {});
  const html = rules.text.html;
  assert.equal(html.size, 3);
  assert.equal(html.unindexed, 0, "`^<!doctype` keeps its literal");
  assert.equal(html.pattern(1), html.pattern(1), "the same object");
  assert.deepEqual(html.pattern(1).literals, ["alpha-app", "beta-app"]);
  const found = html.index.find("<X-BETA-APP id=1> __NEXT_DATA__");
  assert.deepEqual(
    [...html.candidates(found.keys())].map((p) => p.source),
    ["__next_data__", "<x-(?:alpha|beta)-app"],
  );
  assert.equal(rules.tech(0), rules.tech(0));
  // Code-unit order: "jQuery" < "jquery"; both found by their own name.
  assert.equal(rules.indexOf("jQuery"), 1);
  assert.equal(rules.indexOf("jquery"), 2);
  assert.equal(rules.indexOf("JQuery"), undefined);
  // Folded: the first technology of that folded name.
  assert.equal(rules.indexOfFolded(foldName("next")), 0);
  assert.equal(rules.indexOfFolded("jquery"), 1);
  assert.equal(rules.indexOfFolded("zepto"), 3);
  assert.equal(rules.indexOfFolded("nope"), undefined);
  assert.equal(rules.keyed.meta.get("a")![0].source, "x");
  assert.equal(rules.keyed.meta.get("b"), undefined);
  assert.equal(rules.text.scriptSrc.pattern(0).version, "\\1");
});

Deno.test("a linear pattern's needs come from the data, as the build derived them, keyed ones too", async () => {
  await loadLinearEngine();
  const raw = {
    "A": {
      html: "<link[^>]+(?:foo|bar)-lib\\.css",
      meta: { generator: ["x+y", "Acme ([\\d.]+)"] },
    },
    "B": { meta: { author: "Bcorp (\\d+)" } },
  };
  const data = compileRuleData(raw, {}, "", (p) => p !== "x+y");
  assert.deepEqual(data.text.html.needs, { 0: linearNeeds("<link[^>]+(?:foo|bar)-lib\\.css") });
  // Keyed patterns are reordered by key: the needs follow their pattern.
  assert.equal(data.keyed.meta.keys, "generator\nauthor\n");
  assert.deepEqual(data.keyed.meta.needs, { 1: [["acme "]], 2: [["bcorp "]] });
  const rules = buildTechRules(JSON.parse(JSON.stringify(data)));
  const html = rules.text.html.pattern(0);
  assert.deepEqual(html.needs, [["<link", "foo-lib.css"], ["<link", "bar-lib.css"]]);
  assert.deepEqual(rules.keyed.meta.get("generator")!.map((p) => p.needs), [undefined, [[
    "acme ",
  ]]]);
  // What the needs rule out never reaches re2js; what holds them still matches there.
  assert.equal(html.regex.exec('<link href="baz-lib.css">'), null);
  assert.equal(html.regex.exec('<link href="/x/foo-lib.css">')?.[0], '<link href="/x/foo-lib.css');
});
