/** A character outside ASCII (one byte in UTF-8 below it). */
const NON_ASCII = /[\u0080-\uffff]/;

/**
 * The number of bytes `s` takes in UTF-8 (as `TextEncoder` writes it: a lone surrogate is
 * U+FFFD, 3 bytes), counted without encoding: an encoded copy is a buffer outside the JS
 * heap, which V8 frees only at a later GC, and routes count the size of every inline script.
 */
export function utf8Length(s: string): number {
  // An ASCII text (most scripts and styles) is its length: V8 finds the first other character
  // natively, where this loop, not yet compiled on an instance's first page, took milliseconds.
  const first = s.search(NON_ASCII);
  if (first < 0) return s.length;
  let bytes = s.length;
  for (let i = first; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c < 0x80) continue;
    bytes += c < 0x800 ? 1 : 2;
    // A surrogate pair is 4 bytes for its 2 units: all counted here, the low one skipped.
    if (c >= 0xd800 && c <= 0xdbff) {
      const low = s.charCodeAt(i + 1);
      if (low >= 0xdc00 && low <= 0xdfff) i++;
    }
  }
  return bytes;
}
