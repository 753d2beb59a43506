import assert from "node:assert/strict";
import { KNOWN_NAMES, knownName } from "../../../shared/net/known_names.ts";

Deno.test("knownName is the held string equal to the lowercased name, in any ASCII case", () => {
  for (const name of KNOWN_NAMES) {
    const upper = name.toUpperCase();
    const mixed = [...name].map((c, i) => i % 2 ? c.toUpperCase() : c).join("");
    for (const written of [name, upper, mixed]) {
      const page = `<${written} `;
      assert.equal(knownName(page, 1, 1 + written.length), name, written);
    }
  }
  assert.ok(KNOWN_NAMES.length > 200, `${KNOWN_NAMES.length} names`);
});

Deno.test("knownName finds nothing for other names, near misses and non-ASCII look-alikes", () => {
  const others = [
    "image", // the parser reads it as img
    "divx",
    "di",
    "clas",
    "a-",
    "data-something-very-long",
    "lin\u212a", // Kelvin sign: lowercases to "link", but is not ASCII
    "\u0130d", // İd
    "hre\u0006", // a control code: | 0x20 would make it "f"
    "",
  ];
  for (const name of others) assert.equal(knownName(name, 0, name.length), undefined, name);
});

Deno.test("knownName agrees with toLowerCase on random names", () => {
  const alphabet = "aAbBcCdDhHiIlLmMnNrRsStT-:0\u212a\u0130\u0006";
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % alphabet.length;
  const held = new Set(KNOWN_NAMES);
  for (let n = 0; n < 20000; n++) {
    let name = "";
    for (let k = 1 + next() % 6; k > 0; k--) name += alphabet[next()];
    const found = knownName(name, 0, name.length);
    const lowered = name.toLowerCase();
    if (found !== undefined) assert.equal(found, lowered, name);
    else if ([...name].every((c) => c.charCodeAt(0) < 0x80)) assert.ok(!held.has(lowered), name);
  }
});
