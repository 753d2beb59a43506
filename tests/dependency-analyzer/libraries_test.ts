/** Merging the project's rules with the rule set: names, packages, versions, bundles dropped. */
import assert from "node:assert/strict";
import { mergeLibraries } from "../../functions/dependency-analyzer/libraries.ts";
import { compileTechRules, foldName } from "../../functions/dependency-analyzer/tech_rules.ts";

const RULES = compileTechRules({
  "jQuery": { cats: [1] },
  "Next.js": { cats: [2] },
  "Base": { cats: [3] },
}, {
  "1": { name: "JavaScript libraries" },
  "2": { name: "Web frameworks" },
  "3": { name: "Ecommerce" },
});

const ev = (rule: string, value = "x") => ({ rule, source: "url", value });

Deno.test("names fold to the rule set's (next → Next.js) and keep the npm package", () => {
  assert.equal(foldName("Next.js"), foldName("next"));
  const libs = mergeLibraries(RULES, [], [
    { name: "next", version: null, confidence: 100, evidence: [ev("nextjs-data")] },
    { name: "jquery", version: "3.7.1", confidence: 100, evidence: [ev("cdn-code-jquery")] },
  ]);
  assert.deepEqual(libs.map((l) => [l.name, l.version, l.package, l.categories]), [
    ["jQuery", "3.7.1", "jquery", ["JavaScript libraries"]],
    ["Next.js", null, "next", ["Web frameworks"]],
  ]);
});

Deno.test("the project's version stands; the rule set's evidence joins it", () => {
  const libs = mergeLibraries(
    RULES,
    [{
      name: "jQuery",
      categories: ["JavaScript libraries"],
      confidence: 50,
      version: "3.7",
      evidence: [ev("webappanalyzer: jquery")],
    }],
    [{ name: "jquery", version: "3.7.1", confidence: 75, evidence: [ev("versioned-file-name")] }],
  );
  assert.equal(libs.length, 1);
  assert.equal(libs[0].version, "3.7.1");
  assert.equal(libs[0].confidence, 100);
  assert.deepEqual(libs[0].evidence.map((e) => e.rule), [
    "versioned-file-name",
    "webappanalyzer: jquery",
  ]);
});

Deno.test("guessed names the rule set does not know as files are dropped (bundles, themes)", () => {
  const libs = mergeLibraries(RULES, [], [
    { name: "wf", version: "2.0.1", confidence: 75, evidence: [ev("versioned-file-name")] },
    { name: "base", version: "162.0", confidence: 75, evidence: [ev("versioned-file-name")] },
    { name: "My Theme", version: "1.0", confidence: 50, evidence: [ev("generator-other")] },
    { name: "htm", version: "3.1.1", confidence: 100, evidence: [ev("cdn-unpkg")] },
  ]);
  assert.deepEqual(libs.map((l) => [l.name, l.package]), [["htm", "htm"]]);
});
