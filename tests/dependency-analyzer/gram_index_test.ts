/** The short-text prefilter: the same occurrences as the automaton, found through pieces. */
import assert from "node:assert/strict";
import { GramIndex } from "../../functions/dependency-analyzer/gram_index.ts";
import { LiteralIndex } from "../../functions/dependency-analyzer/literal_index.ts";

Deno.test("finds every literal that occurs and where it ends, ids ascending", () => {
  const literals = ["jquery", "query.min", "wp-content/", "she", "hers", "cdn.a", "cdn.b"];
  const index = new GramIndex(literals);
  const text = "ushers load JQUERY.MIN.js from /WP-Content/x via cdn.b; jquery again";
  const found = index.find(text);
  assert.deepEqual([...found.keys()], [0, 1, 2, 3, 4, 6]);
  assert.deepEqual(found.get(0), [18, text.length - 6]);
  assert.deepEqual(found.get(3), [4]);
  assert.deepEqual(found.get(4), [6]);
  assert.deepEqual(found.get(2), [43]);
  assert.deepEqual([...index.find("nothing to see").keys()], []);
  assert.deepEqual([...index.find("").keys()], []);
  assert.deepEqual([...index.find("jq").keys()], []);
  assert.throws(() => new GramIndex(["ok!", "no"]), /shorter than 3/);
  // Lists in proportion to the literals, not one per possible piece (2^18).
  assert.ok(index.tableBytes < 1024, `${index.tableBytes} bytes`);
});

Deno.test("answers as the automaton does on random texts (folding included), ids ascending", () => {
  // Few letters, so that literals share pieces and lists grow; `~` and `é` fold into one class.
  const alphabet = "ab.-/AB~é";
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const word = (len: number) =>
    Array.from({ length: len }, () => alphabet[rand(alphabet.length)]).join("");
  const literals = [
    ...new Set(Array.from({ length: 300 }, () => word(3 + rand(8)).toLowerCase())),
  ];
  const grams = new GramIndex(literals);
  const automaton = new LiteralIndex(literals);
  for (let t = 0; t < 60; t++) {
    const text = word(rand(200));
    const found = grams.find(text);
    const ids = [...found.keys()];
    assert.deepEqual(ids, [...ids].sort((a, b) => a - b), "ascending ids");
    const expected = new Map([...automaton.find(text)].sort((a, b) => a[0] - b[0]));
    assert.deepEqual(found, expected, text);
  }
});

Deno.test("built from the pieces a build chose, it answers the same", () => {
  const literals = ["jquery", "query.min", "wp-content/", "she", "hers", "cdn.a", "cdn.b"];
  const chosen = new GramIndex(literals);
  const loaded = new GramIndex(literals, chosen.pieces);
  assert.deepEqual(loaded.pieces, chosen.pieces);
  for (const text of ["ushers load JQUERY.MIN.js from /WP-Content/x via cdn.b", "cdn.a", ""]) {
    assert.deepEqual(loaded.find(text), chosen.find(text));
  }
  assert.throws(() => new GramIndex(literals, [0]), /a piece per literal/);
});
