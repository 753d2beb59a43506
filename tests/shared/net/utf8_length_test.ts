import assert from "node:assert/strict";
import { utf8Length } from "../../../shared/net/utf8_length.ts";

Deno.test("utf8Length counts what TextEncoder writes, lone surrogates included", () => {
  const samples = [
    "",
    "ascii only",
    "café",
    "€ 10",
    "日本語のページ",
    "emoji 😀 pair",
    "lone \ud800 high",
    "lone \udc00 low",
    "high at end \ud83d",
    "\ud83d\ud83d\ude00",
    "mixed é€😀\u007f\u0080\u07ff\u0800\uffff",
    "a long ASCII start ".repeat(1000) + "then é",
    "ends with a lone high \ud83d",
  ];
  for (const s of samples) {
    assert.equal(utf8Length(s), new TextEncoder().encode(s).length, JSON.stringify(s));
  }
});
