/** The build of the filter engines: AdGuard's CSS-injection rules in the engine's form. */
import assert from "node:assert/strict";
import { withStyleRules } from "../../scripts/build_blocklists.ts";

Deno.test("withStyleRules: #$# rules become :style(), exceptions too; other lines unchanged", () => {
  const lines = [
    "a.com,b.org#$#html > body.locked { overflow: auto !important; }",
    "c.net#@$#body { overflow: auto; }",
    "d.io#$#.banner { remove: true; }",
    "##.cookie-bar",
    "||ads.example^$third-party",
  ].join("\n");
  assert.deepEqual(withStyleRules(lines).split("\n"), [
    "a.com,b.org##html > body.locked:style(overflow: auto !important;)",
    "c.net#@#body:style(overflow: auto;)",
    "",
    "##.cookie-bar",
    "||ads.example^$third-party",
  ]);
});
