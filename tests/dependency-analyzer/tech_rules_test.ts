/** The rule data file and its compilation. */
import assert from "node:assert/strict";
import { buildTechRulesData, DATA_FILE } from "../../scripts/build_tech_rules.ts";
import { loadTechRules } from "../../functions/dependency-analyzer/tech_rules.ts";

Deno.test("tech_rules_data.json is what scripts/build_tech_rules.ts builds from the package", async () => {
  const onDisk = await Deno.readTextFile(DATA_FILE);
  assert.ok(
    onDisk === buildTechRulesData(),
    "stale: run deno run -A scripts/build_tech_rules.ts",
  );
});

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
