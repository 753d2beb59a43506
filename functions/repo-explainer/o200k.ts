/**
 * OpenAI's `o200k_base` encoding (GPT-4o and later), counting only: tiktoken's pre-tokenizer
 * pattern and byte-pair merge over the rank table in `o200k_base.json`. bench/o200k/build.ts
 * builds the table from `gpt-tokenizer`'s, and bench/o200k_test.ts checks every count against
 * `gpt-tokenizer` on this repository's sources and hard cases.
 *
 * Why not a package: `gpt-tokenizer` ships every encoding in several module formats (29 MiB
 * installed, for one table of 1.6 MB); `js-tiktoken` ships them all too (22 MiB); and
 * `@microsoft/tiktokenizer`, which takes a table from outside, measured 110 MB of heap and
 * 1.2-4x the load time of `gpt-tokenizer` (a nested map per token). Tokens here are keys of
 * one map, each token's bytes as a one-byte-per-character string (bench/README.md's tokenizer
 * rows compare load time and heap with `gpt-tokenizer`'s in the same run).
 */
import { onFirstUse } from "../../shared/contract/lazy.ts";

/** tiktoken's `o200k_base` pre-tokenizer: words with their leading mark, 1-3 digits, runs. */
const PATTERN = new RegExp(
  [
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]*[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]+" +
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?",
    "[^\\r\\n\\p{L}\\p{N}]?[\\p{Lu}\\p{Lt}\\p{Lm}\\p{Lo}\\p{M}]+[\\p{Ll}\\p{Lm}\\p{Lo}\\p{M}]*" +
    "(?:'[sS]|'[tT]|'[rR][eE]|'[vV][eE]|'[mM]|'[lL][lL]|'[dD])?",
    "\\p{N}{1,3}",
    " ?[^\\s\\p{L}\\p{N}]+[\\r\\n/]*",
    "\\s*[\\r\\n]+",
    "\\s+(?!\\S)",
    "\\s+",
  ].join("|"),
  "gu",
);

const NON_ASCII = /[\u0080-\uffff]/;

/** Pieces whose counts a memo keeps at most (then it is cleared). */
const MEMO_SIZE = 8192;

/** An encoder that counts tokens; special-token names count as plain text. */
export interface O200k {
  /**
   * The number of tokens of `text`. Pieces recur (identifiers, words of a language): `memo`
   * keeps the counts of those it merged, for the next texts of the same caller. It holds the
   * pieces, and with them the texts they were cut from, so give each request its own.
   */
  count(text: string, memo?: Map<string, number>): number;
}

/** Loads the rank table and builds the counter, once (about 1 s and 26 MB of heap). */
export const loadO200k: () => Promise<O200k> = onFirstUse(async () => {
  const table = (await import("./o200k_base.json", { with: { type: "json" } })).default;
  const ranks = rankMap(Uint8Array.fromBase64(table.ranks), table.tokens);
  const utf8 = new TextEncoder();
  return {
    count(text: string, memo = new Map<string, number>()): number {
      let tokens = 0;
      for (const [piece] of text.matchAll(PATTERN)) {
        // An ASCII piece is its own byte string, and most are one token.
        const ascii = !NON_ASCII.test(piece);
        if (ascii && ranks.has(piece)) {
          tokens++;
          continue;
        }
        let n = memo.get(piece);
        if (n === undefined) {
          n = mergedLength(ascii ? piece : byteString(utf8.encode(piece)), ranks);
          if (memo.size >= MEMO_SIZE) memo.clear();
          memo.set(piece, n);
        }
        tokens += n;
      }
      return tokens;
    },
  };
});

/**
 * The ranks of the table's tokens (each is one length byte and its bytes, in rank order),
 * keyed by {@link byteString}.
 */
export function rankMap(bytes: Uint8Array, tokens: number): Map<string, number> {
  const all = byteString(bytes);
  const ranks = new Map<string, number>();
  let at = 0;
  while (at < all.length) {
    const length = all.charCodeAt(at);
    ranks.set(all.slice(at + 1, at + 1 + length), ranks.size);
    at += 1 + length;
  }
  if (ranks.size !== tokens || at !== all.length) throw new Error("o200k_base.json is damaged");
  return ranks;
}

/** Bytes as a string of one character per byte (what the rank map is keyed by). */
export function byteString(bytes: Uint8Array): string {
  // Each byte widened to a UTF-16 code unit is the character of that code.
  return new TextDecoder("utf-16le").decode(Uint16Array.from(bytes));
}

/**
 * How many tokens byte-pair merging leaves of `piece` (tiktoken's merge: the adjacent pair of
 * lowest rank merges first, until no pair is a token). Quadratic in the piece's length: the
 * caller bounds pieces (tokens.ts `MAX_RUN`).
 */
export function mergedLength(piece: string, ranks: Map<string, number>): number {
  const n = piece.length;
  if (n <= 1 || ranks.has(piece)) return 1;
  const NONE = 0x7fffffff;
  // The parts as a linked list of their starts: next[i] and prev[i] of the part at i, and
  // rank[i] the rank of it and the next part together (NONE: not a token).
  const next = new Int32Array(n + 1);
  const prev = new Int32Array(n);
  const rank = new Int32Array(n);
  for (let i = 0; i <= n; i++) next[i] = i + 1;
  for (let i = 0; i < n; i++) prev[i] = i - 1;
  const pairRank = (i: number) => {
    const j = next[i];
    return j >= n ? NONE : ranks.get(piece.slice(i, next[j])) ?? NONE;
  };
  for (let i = 0; i < n; i++) rank[i] = pairRank(i);
  let parts = n;
  while (true) {
    let best = NONE;
    let at = -1;
    for (let i = 0; i < n; i = next[i]) {
      if (rank[i] < best) {
        best = rank[i];
        at = i;
      }
    }
    if (at < 0) return parts;
    const gone = next[at];
    next[at] = next[gone];
    if (next[at] < n) prev[next[at]] = at;
    parts--;
    rank[at] = pairRank(at);
    if (prev[at] >= 0) rank[prev[at]] = pairRank(prev[at]);
  }
}
