/** The README's fallback table is the code's: each field's row lists its sources in order. */
import assert from "node:assert/strict";
import { FALLBACK_ORDER } from "../../functions/metadata-extractor/fields.ts";

Deno.test("the README lists every fallback order exactly as fields.ts has it", async () => {
  const readme = await Deno.readTextFile(
    new URL("../../functions/metadata-extractor/README.md", import.meta.url),
  );
  const section = readme.slice(readme.indexOf("### Fallback orders"));
  for (const [field, sources] of Object.entries(FALLBACK_ORDER)) {
    const row = section.split("\n").find((l) => l.startsWith(`| \`${field}\` `));
    assert.ok(row, `README has a row for ${field}`);
    // Markup names are code-quoted in the README; the order is what matters.
    const listed = row.split("|")[2].trim().split(" → ").map((s) =>
      s.replace(/`(<[^`]+>)`/g, "$1")
    );
    assert.deepEqual(listed, sources, field);
  }
});
