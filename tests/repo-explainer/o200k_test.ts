/**
 * The o200k_base counter. Its counts equal `gpt-tokenizer`'s on this repository's sources
 * and hard cases in bench/o200k_test.ts (`gpt-tokenizer` is a package of bench/ only); here
 * the merge itself, the table's framing, and counts `gpt-tokenizer` 4.0.0 gives.
 */
import assert from "node:assert/strict";
import { loadO200k, mergedLength, rankMap } from "../../functions/repo-explainer/o200k.ts";

Deno.test("o200k: counts of known text (as gpt-tokenizer 4.0.0 counts them)", async () => {
  const { count } = await loadO200k();
  assert.equal(count("hello world\n"), 3);
  assert.equal(count("<|endoftext|> hi"), 8, "special-token names are plain text");
  assert.equal(count("héllo 👋🏽 日本語 "), 9);
  assert.equal(count("a".repeat(300)), 38);
  assert.equal(count("\x00\xff\u{10FFFF}"), 6);
  assert.equal(count(""), 0);
});

Deno.test("o200k: the lowest-ranked pair merges first, until no pair is a token", () => {
  const ranks = new Map([["a", 0], ["b", 1], ["c", 2], ["bc", 3], ["ab", 4], ["abc", 5]]);
  // bc (3) before ab (4), then a+bc is no token: two parts.
  assert.equal(mergedLength("abc", new Map([...ranks].filter(([k]) => k !== "abc"))), 2);
  assert.equal(mergedLength("abc", ranks), 1);
  assert.equal(mergedLength("abab", ranks), 2);
  assert.equal(mergedLength("cab", ranks), 2);
  assert.equal(mergedLength("ccc", ranks), 3);
});

Deno.test("o200k: the table is length-framed, and a damaged one is refused", () => {
  const table = new Uint8Array([1, 97, 2, 97, 98]);
  assert.deepEqual([...rankMap(table, 2)], [["a", 0], ["ab", 1]]);
  assert.throws(() => rankMap(table, 3), /damaged/);
  assert.throws(() => rankMap(table.subarray(0, 4), 2), /damaged/);
});

Deno.test("o200k: a memo gives the same counts, and stays bounded", async () => {
  const { count } = await loadO200k();
  const memo = new Map<string, number>();
  const text = "naïve déjà-vu, Überraschung: ".repeat(20) + "日本語のテキスト";
  assert.equal(count(text, memo), count(text));
  assert.ok(memo.size > 0, "merged pieces are kept");
  assert.equal(count(text, memo), count(text), "and counted the same from the memo");
  for (let i = 0; i < 10_000; i++) count(`ü${i}ü`, memo);
  assert.ok(memo.size <= 8192, `${memo.size} pieces kept`);
});
