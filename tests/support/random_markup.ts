/**
 * Deterministic random markup for the skipping tokenizers' and the reader's tests: pieces drawn
 * by xorshift, so a failing seed reproduces.
 */

/** A page of `length` pieces of `pieces`, drawn from `seed`. */
export function randomMarkup(pieces: readonly string[], seed: number, length: number): string {
  let x = seed || 1;
  let out = "";
  for (let i = 0; i < length; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out += pieces[(x >>> 0) % pieces.length];
  }
  return out;
}

/** Nested markup with links, white space of every kind and text: the pieces of random pages. */
export const NESTED_TEXT: readonly string[] = [
  "<div>",
  "</div>",
  "<p>",
  "</p>",
  "<a href=#x>",
  "<a href=/y>",
  "</a>",
  "<b>",
  "</b>",
  " ",
  "\n",
  "\u00a0",
  "word",
  "two  words",
  " lead",
  "trail ",
  "<br>",
  "<!-- c -->",
];
