/**
 * The article-extraction score: 4-gram shingle precision, recall and F1 of an extracted text
 * against the hand-marked article body, as article-extraction benchmarks score it (each text
 * lowercased and cut into word tokens; every run of four consecutive tokens is a shingle,
 * counted as often as it occurs; the overlap is the multiset intersection). A text shorter
 * than four tokens is one shingle. Averaged per page by the caller.
 */

/** Shingle width. */
export const SHINGLE = 4;

/** Precision, recall and F1 of one page. */
export interface ExtractionScore {
  precision: number;
  recall: number;
  f1: number;
}

/** Lowercased word tokens (letters and digits of any script). */
export function wordTokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** The text's shingles with their counts. */
export function shingles(text: string, n = SHINGLE): Map<string, number> {
  const tokens = wordTokens(text);
  const out = new Map<string, number>();
  if (tokens.length === 0) return out;
  const last = Math.max(0, tokens.length - n);
  for (let i = 0; i <= last; i++) {
    const key = tokens.slice(i, i + n).join(" ");
    out.set(key, (out.get(key) ?? 0) + 1);
  }
  return out;
}

/**
 * The score of `extracted` against `expected`. Both empty: a perfect score; one empty: zero
 * for the side that has nothing (an empty extraction has precision 1 and recall 0).
 */
export function shingleScore(extracted: string, expected: string): ExtractionScore {
  const got = shingles(extracted);
  const want = shingles(expected);
  const total = (m: Map<string, number>) => [...m.values()].reduce((a, b) => a + b, 0);
  const nGot = total(got);
  const nWant = total(want);
  if (nGot === 0 && nWant === 0) return { precision: 1, recall: 1, f1: 1 };
  let overlap = 0;
  for (const [key, count] of got) overlap += Math.min(count, want.get(key) ?? 0);
  const precision = nGot === 0 ? 1 : overlap / nGot;
  const recall = nWant === 0 ? 1 : overlap / nWant;
  const f1 = precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
  return { precision, recall, f1 };
}

/** The mean of each measure over pages. */
export function meanScore(scores: readonly ExtractionScore[]): ExtractionScore {
  const mean = (f: (s: ExtractionScore) => number) =>
    scores.length === 0 ? 0 : scores.reduce((a, s) => a + f(s), 0) / scores.length;
  return {
    precision: mean((s) => s.precision),
    recall: mean((s) => s.recall),
    f1: mean((s) => s.f1),
  };
}
