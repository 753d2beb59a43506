/**
 * Token counts with OpenAI's `o200k_base` encoding (GPT-4o and later), through `o200k.ts`.
 * Its rank table (2 MB of JSON, about 26 MB of heap once built, 1 to 2 s to load on this
 * machine) is loaded by the first count, never at start-up.
 *
 * BPE costs grow faster than linearly with the length of one pre-token, and a repository is
 * strangers' text (a minified bundle, a 100 kB base64 line): runs of non-space characters longer
 * than {@link MAX_RUN} are counted in {@link MAX_RUN}-character pieces, text is counted in
 * chunks of lines with a pause between slices of work, and once the request's budget is spent
 * the rest is estimated at 4 characters a token and the answer says so (`exact: false`).
 */
import { loadO200k } from "./o200k.ts";
import { cooperative } from "../../shared/net/html.ts";

/** The encoding the counts are in, as the answers name it. */
export const TOKENIZER = "o200k_base";

/**
 * Non-space runs longer than this are counted piecewise. Measured with `gpt-tokenizer` on
 * 100 000 characters of random base64: pieces of 64 took 2.1 s, of 256 0.9 s, of 1024 0.8 s; as
 * one piece, 100 000 repeated letters took 55 s. With `o200k.ts` (2026-11-26, loaded machine):
 * 0.6-0.75 s for each piece size, and 20 000 repeated letters as one piece 1.8 s (the merge is
 * quadratic in a piece's length). 256 keeps counts within 0.5% of the whole text's.
 */
export const MAX_RUN = 256;

/** Characters counted in one call at most (whole lines, a long line alone). */
const CHUNK_CHARS = 4096;

/** Characters per token of the estimate used once the time budget is spent. */
export const ESTIMATE_CHARS_PER_TOKEN = 4;

/** Counts tokens of texts within one time budget. */
export interface TokenCounter {
  /** Tokens of `text` (estimated once the budget is spent). */
  count(text: string): Promise<number>;
  /** False once any count was estimated. */
  readonly exact: boolean;
}

/**
 * A counter that stops counting exactly after `budgetMs` of `clock` time (then estimates).
 * Repository text may name special tokens (`<|endoftext|>`): they count as plain text.
 */
export async function tokenCounter(
  budgetMs: number,
  clock: () => number = () => performance.now(),
): Promise<TokenCounter> {
  const encoding = await loadO200k();
  const memo = new Map<string, number>();
  const started = clock();
  const yieldSoon = cooperative();
  let exact = true;
  return {
    get exact() {
      return exact;
    },
    async count(text: string): Promise<number> {
      let total = 0;
      for (const chunk of chunks(text)) {
        if (clock() - started > budgetMs) {
          exact = false;
          total += Math.ceil(chunk.length / ESTIMATE_CHARS_PER_TOKEN);
          continue;
        }
        total += encoding.count(chunk, memo);
        await yieldSoon();
      }
      return total;
    },
  };
}

/** Splits text into whole-line chunks of at most {@link CHUNK_CHARS}, long runs cut. */
export function* chunks(text: string): Generator<string> {
  const longRun = new RegExp(`\\S{${MAX_RUN + 1},}`);
  const longRuns = new RegExp(`(\\S{${MAX_RUN + 1},})`);
  let start = 0;
  while (start < text.length) {
    let end = Math.min(text.length, start + CHUNK_CHARS);
    if (end < text.length) {
      const newline = text.lastIndexOf("\n", end - 1);
      if (newline >= start) end = newline + 1;
    }
    const chunk = text.slice(start, end);
    start = end;
    if (!longRun.test(chunk)) {
      yield chunk;
      continue;
    }
    // Whitespace and short words as they are; each long run in MAX_RUN pieces.
    for (const part of chunk.split(longRuns)) {
      if (part.length <= MAX_RUN) {
        if (part) yield part;
        continue;
      }
      for (let i = 0; i < part.length; i += MAX_RUN) yield part.slice(i, i + MAX_RUN);
    }
  }
}

/** Token counts of a set of files, their directories and the whole. */
export interface TokenReport {
  /** The encoding: {@link TOKENIZER}. */
  tokenizer: string;
  /** False when part of the count was estimated (the time budget ran out). */
  exact: boolean;
  total: number;
  /** Each file's tokens, in path order. */
  files: { path: string; tokens: number }[];
  /** Each directory's tokens (the sum of what lies below it), in path order, ending in `/`. */
  directories: { path: string; tokens: number }[];
}

/** Sums file counts into directories (every ancestor of each file; the root is `total`). */
export function tokenReport(
  files: readonly { path: string; tokens: number }[],
  exact: boolean,
): TokenReport {
  const dirs = new Map<string, number>();
  let total = 0;
  for (const f of files) {
    total += f.tokens;
    const parts = f.path.split("/");
    for (let i = 0; i < parts.length - 1; i++) {
      const dir = parts.slice(0, i + 1).join("/") + "/";
      dirs.set(dir, (dirs.get(dir) ?? 0) + f.tokens);
    }
  }
  const byPath = (a: { path: string }, b: { path: string }) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0;
  return {
    tokenizer: TOKENIZER,
    exact,
    total,
    files: [...files].sort(byPath),
    directories: [...dirs].map(([path, tokens]) => ({ path, tokens })).sort(byPath),
  };
}
