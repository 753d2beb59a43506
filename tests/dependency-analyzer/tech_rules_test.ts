/** The rule data file, its compilation at build time and its loading. */
import assert from "node:assert/strict";
import {
  buildTechRules,
  compileRuleData,
  compileTechRules,
  loadTechRules,
} from "../../functions/dependency-analyzer/tech_rules.ts";

Deno.test("the whole rule set loads once, every pattern compiled, with a prefilter for nearly all", async () => {
  const rules = await loadTechRules();
  assert.equal(await loadTechRules(), rules, "compiled once, shared");
  assert.ok(rules.techs.length > 5_000, `${rules.techs.length} technologies`);
  assert.equal(rules.skipped, 0);
  for (const [signal, set] of Object.entries(rules.text)) {
    const all = set.indexed.length + set.always.length;
    assert.ok(
      set.always.length <= 0.02 * all,
      `${signal}: ${set.always.length} of ${all} unindexed`,
    );
  }
  // Every implied, excluded and required name exists.
  for (const tech of rules.techs) {
    for (const name of [...tech.implies.map((i) => i.name), ...tech.excludes, ...tech.requires]) {
      assert.ok(rules.byName.has(name), `${tech.name} names unknown ${name}`);
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
  assert.deepEqual(loaded, compiled);
  assert.deepEqual(loaded.techs[0].implies, [{ name: "B", confidence: 40, version: "2" }]);
  assert.deepEqual(loaded.techs[1].requiresCategory, ["CMS"]);
  const [plain, alternatives, none] = loaded.text.html.indexed.concat(loaded.text.html.always);
  assert.deepEqual([plain.literals, plain.version, plain.confidence], [
    ['<div id="a-app"'],
    "",
    100,
  ]);
  assert.deepEqual(alternatives.literals, ["foo-lib", "bar-lib"]);
  assert.deepEqual([alternatives.version, alternatives.confidence], ["\\1", 50]);
  assert.equal(none.literals, null);
  assert.deepEqual([...loaded.keyed.meta.keys()], ["generator"]);
  assert.equal(loaded.keyed.cookies.get("a_session")![0].source, "");
});
