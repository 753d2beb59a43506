/**
 * The build-time ReDoS check of the technology rule set (bench/tech_rules/build.ts): which
 * patterns may run on the page as backtracking regular expressions and which must run on the
 * linear-time engine (re2js) instead.
 *
 * A pattern is linear by construction, with no check, when it repeats at most one single
 * character, class or escape (a repeated last one does not count): the analyzer bounds every repetition to 250
 * (tech_patterns.ts `boundQuantifiers`), so a match attempt at one position takes at most a
 * few hundred steps. Any other pattern (two repetitions in a row, a repeated group, nested
 * ones) goes to `recheck`, and anything it does not call safe (polynomial, exponential, or not
 * decided within its timeout) runs on re2js. The build fails when such a pattern does not
 * compile on re2js (a back reference or a look-around): it must then be rewritten
 * (tech_patterns.ts `REWRITES`), with a test that it still detects what it did.
 *
 * recheck takes 0.1–2 s a pattern, so verdicts are kept in tech_rules_redos.json by pattern
 * text and only new patterns are checked; `--recheck` checks all again.
 */
import { check } from "recheck";
import denoJson from "../deno.json" with { type: "json" };

/** Verdicts by pattern text: "safe", or why the pattern runs on the linear engine. */
export type Verdicts = Record<string, string>;

/** Where the verdicts are kept (committed with the data file). */
export const REDOS_FILE = new URL("./redos.json", import.meta.url);

/** The checker the verdicts came from: verdicts of another version are checked again. */
export const CHECKER = denoJson.imports.recheck;

/**
 * How long recheck may take on one pattern; undecided means the linear engine. With 2 s, 451
 * patterns came out undecided; checked again one at a time with 10 s, each was decided within
 * 2.3 s (two checks at once on this 2-core machine had timed out).
 */
const CHECK_TIMEOUT_MS = 10_000;

/** A kept verdict that recheck did not reach in time (`--undecided` checks them again). */
export function undecided(verdict: string): boolean {
  return verdict === "unknown (timeout)";
}

/** One atom: an escape, a class, a group's start or end, or one character; then a quantifier. */
const ATOM =
  /(\\.|\[(?:\\.|[^\]\\])*\]|\((?:\?(?:[:=!]|<[=!]?))?|\)|[^\\[()])([*+?]|\{\d+(?:,\d*)?\})?/g;

/**
 * Whether `source` repeats at most one thing, and that thing is a single character, class or
 * escape (not a group): then, with repetitions bounded, it cannot backtrack more than a
 * constant per position.
 */
export function linearByConstruction(source: string): boolean {
  let repeats = 0;
  for (const { 0: whole, 1: atom, 2: quantifier, index } of source.matchAll(ATOM)) {
    if (!quantifier || quantifier === "?" || /^\{\d+\}$/.test(quantifier)) continue;
    // The last atom (`wp-block-*`): nothing after it can fail, so it never backtracks.
    if (atom !== ")" && /^\??$/.test(source.slice(index + whole.length))) continue;
    repeats++;
    if (atom === ")" || repeats > 1) return false;
  }
  return true;
}

/** recheck's verdict on one pattern, in the form kept in the file. */
async function verdictOf(source: string): Promise<string> {
  const d = await check(source, "i", { timeout: CHECK_TIMEOUT_MS });
  if (d.status === "safe") return "safe";
  if (d.status === "vulnerable") return d.complexity.summary;
  return `unknown (${d.error.kind})`;
}

/** The kept verdicts, or none when the file is missing or from another checker. */
export async function readVerdicts(): Promise<Verdicts> {
  try {
    const kept = JSON.parse(await Deno.readTextFile(REDOS_FILE));
    return kept.checker === CHECKER ? kept.verdicts : {};
  } catch (e) {
    if (e instanceof Deno.errors.NotFound) return {};
    throw e;
  }
}

/** The file's text for `verdicts` (sorted, so that a rebuild changes only what changed). */
export function verdictsText(verdicts: Verdicts): string {
  const sorted = Object.fromEntries(Object.entries(verdicts).sort(([a], [b]) => (a < b ? -1 : 1)));
  return JSON.stringify({ checker: CHECKER, verdicts: sorted }, null, 2) + "\n";
}

/**
 * Verdicts for every pattern of `sources` that is not linear by construction: `kept` ones
 * as they are, the others from recheck (`onProgress` after each).
 */
export async function checkPatterns(
  sources: Iterable<string>,
  kept: Verdicts,
  onProgress: (done: number, total: number) => void = () => {},
): Promise<Verdicts> {
  const verdicts: Verdicts = {};
  const todo: string[] = [];
  for (const source of new Set(sources)) {
    if (linearByConstruction(source)) continue;
    if (kept[source] !== undefined) verdicts[source] = kept[source];
    else todo.push(source);
  }
  // One at a time: two at once on a 2-core machine ran into the timeout.
  for (let done = 0; done < todo.length; done++) {
    verdicts[todo[done]] = await verdictOf(todo[done]);
    onProgress(done + 1, todo.length);
  }
  return verdicts;
}
