/** The rule data file's string columns (string_column.ts). */
import assert from "node:assert/strict";
import { joinColumn, StringColumn } from "../../functions/dependency-analyzer/string_column.ts";

Deno.test("a joined column gives back each value, empty ones included, in order", () => {
  const values = ["jQuery", "", "a,b", "<script[^>]+src=", ""];
  const column = new StringColumn(joinColumn(values));
  assert.equal(column.length, values.length);
  assert.deepEqual(values.map((_, i) => column.at(i)), values);
  assert.deepEqual(column.all(), values);
  assert.equal(column.at(values.length), undefined);
  assert.equal(column.at(-1), undefined);
});

Deno.test("an empty column has no values; a value with a line break is refused", () => {
  assert.equal(new StringColumn(joinColumn([])).length, 0);
  assert.deepEqual(new StringColumn("").all(), []);
  assert.throws(() => joinColumn(["a\nb"]), /line break/);
});

Deno.test("a column survives the data file's JSON round trip", () => {
  const values = ["\\d+", "caf\u00e9", "\t"];
  const joined = JSON.parse(JSON.stringify(joinColumn(values)));
  assert.deepEqual(new StringColumn(joined).all(), values);
});
