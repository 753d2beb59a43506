/** The README's security table is the code's: every outcome, with its modifier and pass flag. */
import assert from "node:assert/strict";
import { SECURITY_CHECKS } from "../../functions/devtools-inspector/security_table.ts";

Deno.test("the README lists every outcome of every check with its modifier and pass flag", async () => {
  const readme = await Deno.readTextFile(
    new URL("../../functions/devtools-inspector/README.md", import.meta.url),
  );
  const rows = readme.split("\n").filter((l) => l.startsWith("| `"));
  for (const check of SECURITY_CHECKS) {
    assert.ok(readme.includes(`(\`${check.id}\`)`), `README has a section for ${check.id}`);
    for (const [id, outcome] of Object.entries(check.outcomes)) {
      const row = rows.find((l) => l.startsWith(`| \`${id}\` `));
      assert.ok(row, `README has a row for ${id}`);
      const [, , modifier, pass] = row.split("|").map((c) => c.trim());
      assert.equal(Number(modifier), outcome.modifier, id);
      assert.equal(pass, outcome.pass ? "yes" : "no", id);
    }
  }
});
