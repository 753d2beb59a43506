/** The literal prefilter: which literals occur and where, case-insensitively, overlaps included. */
import assert from "node:assert/strict";
import { classOf, LiteralIndex } from "../../functions/dependency-analyzer/literal_index.ts";

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
  const text = "ushers load JQUERY.MIN.js from /WP-Content/x; jquery again";
  const found = index.find(text);
  assert.deepEqual([...found.keys()].sort(), [0, 1, 3, 4, 5, 6]);
  // Where each occurrence ends: "she" and "he" in "ushers", both "jquery"s.
  assert.deepEqual(found.get(1), [4]);
  assert.deepEqual(found.get(0), [4]);
  assert.deepEqual(found.get(4), [18, text.length - 6]);
  assert.deepEqual(found.get(6), [43]);
  assert.deepEqual([...index.find("nothing to see").keys()], []);
  assert.deepEqual([...index.find("").keys()], []);
});

Deno.test("matches the brute-force answer on random texts", () => {
  const alphabet = "ab.-/AB";
  let seed = 7;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const word = (len: number) => Array.from({ length: len }, () => alphabet[rand(7)]).join("");
  const literals = Array.from({ length: 60 }, () => word(2 + rand(7)).toLowerCase());
  const texts = Array.from({ length: 50 }, () => word(80));
  const expected = (text: string) => {
    const lower = text.toLowerCase();
    const found = new Map<number, number[]>();
    literals.forEach((l, id) => {
      for (let at = lower.indexOf(l); at >= 0; at = lower.indexOf(l, at + 1)) {
        found.set(id, [...found.get(id) ?? [], at + l.length]);
      }
    });
    return new Map([...found].sort((a, b) => a[0] - b[0]));
  };
  const index = new LiteralIndex(literals);
  for (const text of texts) {
    const found = index.find(text);
    assert.deepEqual(new Map([...found].sort((a, b) => a[0] - b[0])), expected(text), text);
  }
});

Deno.test("past ASCII every code unit is one class, in two-byte texts too", () => {
  // The oracle folds each UTF-16 code unit to its class and searches the folded strings.
  const fold = (s: string) =>
    Array.from({ length: s.length }, (_, i) => String.fromCharCode(65 + classOf(s.charCodeAt(i))))
      .join("");
  const alphabet = ["a", "B", ".", "é", "€", "😀", "\u00ff", "\uffff", "1"];
  let seed = 11;
  const rand = (n: number) => (seed = (seed * 1103515245 + 12345) % 2 ** 31) % n;
  const word = (len: number) => Array.from({ length: len }, () => alphabet[rand(9)]).join("");
  const literals = Array.from({ length: 40 }, () => word(2 + rand(4)));
  const index = new LiteralIndex(literals);
  for (let t = 0; t < 40; t++) {
    const text = word(60);
    const expected = new Map<number, number[]>();
    const folded = fold(text);
    literals.forEach((l, id) => {
      const f = fold(l);
      for (let at = folded.indexOf(f); at >= 0; at = folded.indexOf(f, at + 1)) {
        expected.set(id, [...expected.get(id) ?? [], at + f.length]);
      }
    });
    const found = index.find(text);
    assert.deepEqual(
      new Map([...found].sort((a, b) => a[0] - b[0])),
      new Map([...expected].sort((a, b) => a[0] - b[0])),
      text,
    );
  }
  // "é" and "€" share class 0: lossy on purpose (a false "present" costs one regex run).
  assert.deepEqual([...new LiteralIndex(["café"]).find("cafe caf€").keys()], [0]);
  assert.equal(classOf(NaN), 0);
});
