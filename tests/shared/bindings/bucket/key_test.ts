import assert from "node:assert/strict";
import {
  encodeKeyPath,
  isValidKey,
  isValidPrefix,
  keyProblem,
  MAX_KEY_BYTES,
} from "../../../../shared/bindings/bucket/key.ts";

Deno.test("valid keys", () => {
  for (
    const key of [
      "a",
      "photos/cat.jpg",
      ".gitignore",
      "a/.b/c..d/...",
      "dir/..hidden",
      "%2e%2e%2e",
      "été/ü 1 (2) #3?.txt",
      "😀/x",
      "k".repeat(MAX_KEY_BYTES),
      "é".repeat(MAX_KEY_BYTES / 2),
    ]
  ) {
    assert.equal(keyProblem(key), null, key);
  }
});

Deno.test("invalid keys, with the rule each breaks", () => {
  const cases: [string, string][] = [
    ["", "empty"],
    ["../../etc/passwd", "dot segment"],
    ["a/../../b", "dot segment"],
    ["..", "dot segment"],
    ["./a", "dot segment"],
    ["a/.", "dot segment"],
    ["%2e%2e/x", "dot segment"],
    ["%2E./x", "dot segment"],
    ["a/%2e", "dot segment"],
    ["a\u0000b", "control character"],
    ["a\nb", "control character"],
    ["a\u007fb", "control character"],
    ["a\u0085b", "control character"],
    ...[..."\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c"].map((
      c,
    ): [string, string] => [`photo${c}gpj.exe`, "bidirectional control character"]),
    ["k".repeat(MAX_KEY_BYTES + 1), `longer than ${MAX_KEY_BYTES} bytes`],
    ["é".repeat(MAX_KEY_BYTES / 2 + 1), `longer than ${MAX_KEY_BYTES} bytes`],
    ["k".repeat(2048), `longer than ${MAX_KEY_BYTES} bytes`],
    ["/etc/passwd", "leading slash"],
    ["a//b", "empty segment"],
    ["a/", "empty segment"],
    ["a\\b", "backslash"],
    ["..\\..\\x", "backslash"],
    ["\ud800x", "not well-formed Unicode"],
  ];
  for (const [key, problem] of cases) {
    assert.equal(keyProblem(key), problem, JSON.stringify(key));
    assert.equal(isValidKey(key), false);
  }
});

Deno.test("prefixes may end mid-segment but carry no control characters", () => {
  assert.ok(isValidPrefix(""));
  assert.ok(isValidPrefix("photos/"));
  assert.ok(isValidPrefix("photos/ca"));
  assert.ok(!isValidPrefix("a\u0000"));
  assert.ok(!isValidPrefix("p".repeat(MAX_KEY_BYTES + 1)));
});

Deno.test("encodeKeyPath encodes each segment and keeps the slashes", () => {
  assert.equal(encodeKeyPath("a/b c/d#?.txt"), "a/b%20c/d%23%3F.txt");
  assert.equal(encodeKeyPath("été/100%"), "%C3%A9t%C3%A9/100%25");
  assert.equal(decodeURIComponent(encodeKeyPath("x/y z")), "x/y z");
});
