/**
 * Deterministic random markup for the skipping tokenizers' tests: pieces drawn by xorshift, so
 * a failing seed reproduces.
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
