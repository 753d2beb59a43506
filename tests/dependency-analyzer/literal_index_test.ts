/** The literal prefilter: which literals occur, case-insensitively, overlaps included. */
import assert from "node:assert/strict";
import { LiteralIndex } from "../../functions/dependency-analyzer/literal_index.ts";

Deno.test("finds every literal that occurs, overlapping and nested ones too", () => {
  const index = new LiteralIndex([
    "he",
    "she",
    "his",
    "hers",
    "jquery",
    "query.min",
    "wp-content/",
  ]);
  assert.deepEqual([...index.find("ushers load JQUERY.MIN.js from /WP-Content/x")].sort(), [
    0,
    1,
    3,
    4,
    5,
    6,
  ]);
  assert.deepEqual([...index.find("nothing to see")], []);
  assert.deepEqual([...index.find("")], []);
});

Deno.test("matches the brute-force answer on random texts", () => {
  const alphabet = "ab.-/AB";
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const word = (len: number) => Array.from({ length: len }, () => alphabet[rand(7)]).join("");
  const literals = Array.from({ length: 40 }, () => word(2 + rand(4)).toLowerCase());
  const index = new LiteralIndex(literals);
  for (let t = 0; t < 50; t++) {
    const text = word(60);
    const expected = new Set(
      literals.map((l, i) => (text.toLowerCase().includes(l) ? i : -1)).filter((i) => i >= 0),
    );
    assert.deepEqual(index.find(text), expected, text);
  }
});
