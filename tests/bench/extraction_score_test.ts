/** The article-extraction scorer of bench/reader.ts: 4-gram shingle precision, recall, F1. */
import assert from "node:assert/strict";
import { meanScore, shingles, shingleScore, wordTokens } from "../../bench/extraction_score.ts";

const close = (a: number, b: number) => assert.ok(Math.abs(a - b) < 1e-9, `${a} != ${b}`);

Deno.test("wordTokens: lowercased letters and digits of any script", () => {
  assert.deepEqual(wordTokens("Hello, World! 2024 — Ça va? 東京"), [
    "hello",
    "world",
    "2024",
    "ça",
    "va",
    "東京",
  ]);
});

Deno.test("shingles: every run of four tokens, counted; a short text is one shingle", () => {
  assert.deepEqual([...shingles("a b c d e a b c d")], [
    ["a b c d", 2],
    ["b c d e", 1],
    ["c d e a", 1],
    ["d e a b", 1],
    ["e a b c", 1],
  ]);
  assert.deepEqual([...shingles("just two")], [["just two", 1]]);
  assert.equal(shingles("  ").size, 0);
});

Deno.test("shingleScore: identical texts score 1; punctuation and case do not count", () => {
  assert.deepEqual(shingleScore("The cat sat on the mat.", "the CAT sat, on the mat"), {
    precision: 1,
    recall: 1,
    f1: 1,
  });
});

Deno.test("shingleScore: extra boilerplate costs precision, a missing paragraph costs recall", () => {
  const body = "one two three four five six seven eight"; // 5 shingles
  const extra = `${body} nine ten`; // 7 shingles, 5 right
  const s = shingleScore(extra, body);
  close(s.precision, 5 / 7);
  close(s.recall, 1);
  close(s.f1, (2 * (5 / 7)) / (5 / 7 + 1));
  const short = "one two three four five"; // 2 shingles, both right
  const t = shingleScore(short, body);
  close(t.precision, 1);
  close(t.recall, 2 / 5);
});

Deno.test("shingleScore: repeated text counts once per occurrence in the reference", () => {
  const s = shingleScore("a b c d a b c d", "a b c d");
  // 5 shingles extracted ("a b c d" twice), the reference has it once.
  close(s.precision, 1 / 5);
  close(s.recall, 1);
});

Deno.test("shingleScore: empty sides", () => {
  assert.deepEqual(shingleScore("", ""), { precision: 1, recall: 1, f1: 1 });
  assert.deepEqual(shingleScore("", "some article text here"), { precision: 1, recall: 0, f1: 0 });
  assert.deepEqual(shingleScore("menu home about us", ""), { precision: 0, recall: 1, f1: 0 });
});

Deno.test("meanScore: averages per page", () => {
  const m = meanScore([{ precision: 1, recall: 0.5, f1: 2 / 3 }, {
    precision: 0.5,
    recall: 1,
    f1: 2 / 3,
  }]);
  close(m.precision, 0.75);
  close(m.recall, 0.75);
  close(m.f1, 2 / 3);
  assert.deepEqual(meanScore([]), { precision: 0, recall: 0, f1: 0 });
});
