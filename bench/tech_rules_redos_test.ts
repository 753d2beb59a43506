/** The build-time ReDoS check of the technology rules (bench/tech_rules/redos.ts). */
import assert from "node:assert/strict";
import { checkPatterns, linearByConstruction, readVerdicts } from "./tech_rules/redos.ts";
import { compileRuleData } from "../functions/dependency-analyzer/tech_rules.ts";
import { loadLinearEngine, REWRITES } from "../functions/dependency-analyzer/tech_patterns.ts";

Deno.test("one repeated character or class is linear by construction; more goes to recheck", () => {
  for (
    const source of [
      "abc",
      "jquery\\.js",
      "<meta[^>]+name=x",
      "a(?:b|c)?d\\d{3}",
      "x[*+]y",
      "<div[^>]+class=wp-block-*",
    ]
  ) {
    assert.ok(linearByConstruction(source), source);
  }
  for (
    const source of [
      "<meta[^>]+name=[^>]+x", // two in a row
      "(?:ab)+c", // a repeated group
      "bootstrap(?:[^>]*?([\\d]+(?:.[\\d]+)?)|)", // nested
      "a*b*c",
    ]
  ) {
    assert.ok(!linearByConstruction(source), source);
  }
});

Deno.test("recheck tells a cubic pattern from a safe one; kept verdicts are not checked again", async () => {
  const cubic = "a[^>]*?(?:[\\d]+(?:.[\\d]+(?:.[\\d]+)?)?)[^>]*?b";
  const safe = "(?:abc)+d";
  const verdicts = await checkPatterns([cubic, safe, "plain"], { [safe]: "kept" });
  assert.match(verdicts[cubic], /polynomial|exponential/);
  assert.equal(verdicts[safe], "kept", "taken from what was kept");
  assert.equal(verdicts.plain, undefined, "linear by construction: not checked");
});

Deno.test("every pattern of the committed rule set that can backtrack has a verdict", async () => {
  const verdicts = await readVerdicts();
  assert.ok(Object.keys(verdicts).length > 400, "verdicts for the rule set are committed");
  const linear = Object.values(verdicts).filter((v) => v !== "safe").length;
  assert.ok(linear > 0 && linear < Object.keys(verdicts).length);
});

Deno.test("the build fails on a pattern that can backtrack and has no linear-time form", async () => {
  await loadLinearEngine();
  const raw = { A: { html: "(a+)+\\1x" } };
  assert.throws(
    () => compileRuleData(raw, {}, "", () => true),
    /does not compile on re2js \(rewrite it\)/,
  );
  const ok = compileRuleData({ A: { html: "(a+)+x" } }, {}, "", () => true);
  assert.deepEqual(ok.text.html.linear, [0]);
});

Deno.test("a look-ahead's rewrite that runs on V8 cannot backtrack for long there", async () => {
  const onV8 = Object.values(REWRITES).filter((r) => r.v8).map((r) => r.pattern);
  assert.ok(onV8.length > 0);
  const checked = onV8.filter((p) => !linearByConstruction(p));
  const verdicts = await checkPatterns(checked, {});
  for (const pattern of checked) assert.equal(verdicts[pattern], "safe", pattern);
});
