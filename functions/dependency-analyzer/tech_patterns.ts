/**
 * One webappanalyzer pattern string (`jquery[.-]([\d.]*\d)[^/]*\.js\;version:\1`) compiled
 * for the engine: the regular expression, the literal every match must contain (for the
 * prefilter), the version template and the confidence.
 *
 * Fixes over wappalyzer-core 6.10's `parsePattern`: it rewrites every `+` and `*` into
 * `{1,250}` / `{0,250}` to bound backtracking, also inside character classes (`[+*]` gains
 * `{`, `,`, `0`, `2`, `5`) and after a backslash (`\*` becomes the literal text `{0,250}`);
 * here only real quantifiers are bounded. Its version resolution removes only the first
 * unmatched back reference; here all are.
 *
 * Patterns that could backtrack for long (bench/tech_rules/redos.ts decides at build time)
 * run on re2js, a linear-time engine in plain JavaScript: a few times slower per character
 * than V8's, but never worse than linear in the text. re2js (280 KB of the analyzer's code) is
 * imported when a pattern first needs it (`execLoading`), not with the analyzer: most pages
 * need none, and its import cost ~6 ms of an instance's first request.
 */
import type { RE2JS } from "re2js";
import { onFirstUse } from "../../shared/contract/lazy.ts";

/** re2js, once `loadLinearEngine` has loaded it. */
let engine: typeof RE2JS | undefined;

/** Imports the linear-time engine (once); `LinearRegex` needs it before it compiles. */
export const loadLinearEngine: () => Promise<void> = onFirstUse(async () => {
  engine = (await import("re2js")).RE2JS;
});

/** Thrown by a `LinearRegex` that must compile before `loadLinearEngine` has finished. */
export class LinearEngineMissing extends Error {
  constructor() {
    super("the linear-time engine is not loaded (await loadLinearEngine())");
  }
}

function linearEngine(): typeof RE2JS {
  if (!engine) throw new LinearEngineMissing();
  return engine;
}

/**
 * `regex.exec(text)`, loading the linear-time engine first when the pattern needs it and it is
 * not loaded yet (then a promise; else the answer itself, so that a loop over many texts
 * awaits nothing).
 */
export function execLoading(
  regex: PatternRegex,
  text: string,
): RegExpExecArray | null | Promise<RegExpExecArray | null> {
  try {
    return regex.exec(text);
  } catch (err) {
    if (!(err instanceof LinearEngineMissing)) throw err;
    return loadLinearEngine().then(() => regex.exec(text));
  }
}

/** What the engine asks of a compiled pattern: V8's RegExp or the linear-time one. */
export interface PatternRegex {
  exec(text: string): RegExpExecArray | null;
  test(text: string): boolean;
}

/**
 * Rule patterns that could backtrack and use a look-ahead, which re2js lacks: each as a
 * pattern and one whose match anywhere in the same text (a URL) rules it out.
 * tests/dependency-analyzer/tech_patterns_test.ts checks that each still detects what the
 * original did. `v8`: the pattern (not its `unless`) cannot backtrack for long, so V8 runs it
 * (a new instance's first re2js compile takes 20-80 ms); bench/tech_rules_redos_test.ts checks
 * that it is linear by construction or that recheck finds it safe.
 */
export const REWRITES: Readonly<
  Record<string, { pattern: string; unless: string; v8?: true }>
> = {
  "^(?!.*player).*aniview\\.com/": {
    pattern: "aniview\\.com/",
    unless: "^.*player",
    v8: true,
  },
  "leaflet.{0,32}\\.js(?!.+shopify)": {
    pattern: "leaflet.{0,32}\\.js",
    unless: "leaflet.{0,32}\\.js.+shopify",
    v8: true,
  },
  "(?:((?:\\d+\\.)+\\d+)\\/(?:dist\\/)?)?leaflet[\\w\\-\\.]{0,32}\\.js(?!.+shopify)": {
    pattern: "(?:((?:\\d+\\.)+\\d+)\\/(?:dist\\/)?)?leaflet[\\w\\-\\.]{0,32}\\.js",
    unless: "leaflet[\\w\\-\\.]{0,32}\\.js.+shopify",
  },
  "(?:(?:dist\\/)?)?leaflet[\\w\\-\\.]{0,32}\\.js(?:\\?v(?:er)?=((?:\\d+\\.)+\\d+))?(?!.+shopify)":
    {
      pattern: "leaflet[\\w\\-\\.]{0,32}\\.js(?:\\?v(?:er)?=((?:\\d+\\.)+\\d+))?",
      unless: "leaflet[\\w\\-\\.]{0,32}\\.js.+shopify",
    },
  "/(\\d+\\.\\d+\\.\\d+)/jquery(?!\\.popupoverlay\\.js|(?:\\.[\\w-]*)*fancybox)[/.-][^u]": {
    pattern: "/(\\d+\\.\\d+\\.\\d+)/jquery[/.-][^u]",
    unless: "/\\d+\\.\\d+\\.\\d+/jquery(?:\\.popupoverlay\\.js|(?:\\.[\\w-]*)*fancybox)",
    v8: true,
  },
  "^(?!.*?/wp-content/plugins/[^/]+/js/integrations/woocommerce\\.js(?:\\?ver=[\\d.]+)?$).*/woocommerce(?:\\.min)?\\.js(?:\\?ver=([0-9.]+))?":
    {
      pattern: "/woocommerce(?:\\.min)?\\.js(?:\\?ver=([0-9.]+))?",
      unless: "^.*?/wp-content/plugins/[^/]+/js/integrations/woocommerce\\.js(?:\\?ver=[\\d.]+)?$",
      v8: true,
    },
  "^(?!.*?/wp-content/plugins/[^/]+/js/integrations/woocommerce\\.js(?:\\?ver=[\\d.]+)?$).*woocommerce":
    {
      pattern: "woocommerce",
      unless: "^.*?/wp-content/plugins/[^/]+/js/integrations/woocommerce\\.js(?:\\?ver=[\\d.]+)?$",
      v8: true,
    },
};

/** A pattern on re2js, answering as a RegExp does (`exec` with groups, `index`). */
export class LinearRegex implements PatternRegex {
  readonly #pattern: string;
  readonly #unlessPattern: string | null;
  /** The pattern on V8, for a rewrite that is linear there (`REWRITES`' `v8`). */
  readonly #v8: RegExp | null;
  /** Compiled on the first text that holds the needed texts (most never get one). */
  #re: RE2JS | undefined;
  #unless: RE2JS | undefined;
  /** Per alternative, texts a match contains (V8 finds them in linear time, far faster). */
  readonly #needs: RegExp[][] | null;
  /** The same for `unless`: compiled only for a match whose text holds what it needs. */
  readonly #unlessNeeds: RegExp[][] | null;
  /**
   * `source` as written, or as rewritten (`REWRITES`); throws when re2js cannot compile it
   * (back references, look-arounds), or `LinearEngineMissing` before `loadLinearEngine`.
   * `lazy`: compile on first use instead (the engine's patterns, checked at build time), as
   * compiling costs far more than the needs' check that rules out most texts; `exec` then
   * throws `LinearEngineMissing` when it must compile before the engine is loaded. `needs`:
   * `linearNeeds(source)` as the build computed it (the rule data holds them: deriving them
   * took a few ms of an instance's first page), else derived here.
   */
  constructor(source: string, lazy = false, needs?: RequiredTexts | null) {
    const rewrite = REWRITES[source];
    this.#pattern = rewrite?.pattern ?? source;
    this.#unlessPattern = rewrite?.unless ?? null;
    this.#v8 = rewrite?.v8 ? new RegExp(boundQuantifiers(rewrite.pattern), "i") : null;
    this.#needs = checksOf(needs === undefined ? requiredTexts(this.#pattern) : needs);
    this.#unlessNeeds = this.#unlessPattern === null
      ? null
      : checksOf(requiredTexts(this.#unlessPattern));
    if (!lazy) {
      if (!this.#v8) this.#compiled();
      this.#compiledUnless();
    }
  }

  #compiled(): RE2JS {
    const re2 = linearEngine();
    return this.#re ??= re2.compile(this.#pattern, re2.CASE_INSENSITIVE);
  }

  #compiledUnless(): RE2JS | null {
    if (this.#unlessPattern === null) return null;
    const re2 = linearEngine();
    return this.#unless ??= re2.compile(this.#unlessPattern, re2.CASE_INSENSITIVE);
  }

  exec(text: string): RegExpExecArray | null {
    if (!holds(this.#needs, text)) return null;
    const match = this.#v8 ? this.#v8.exec(text) : this.#match(text);
    if (!match) return null;
    if (holds(this.#unlessNeeds, text) && this.#compiledUnless()?.matcher(text).find()) {
      return null;
    }
    return match;
  }

  /** The first match on re2js, answering as `RegExp.exec` does. */
  #match(text: string): RegExpExecArray | null {
    const m = this.#compiled().matcher(text);
    if (!m.find()) return null;
    const groups: (string | undefined)[] = [];
    for (let g = 0; g <= m.groupCount(); g++) groups.push(m.group(g) ?? undefined);
    return Object.assign(groups, { index: m.start(0), input: text }) as RegExpExecArray;
  }

  test(text: string): boolean {
    return this.exec(text) !== null;
  }
}

/** Per alternative, the texts a match contains (`requiredTexts`); an array: one of them. */
export type RequiredTexts = (string | string[])[][];

/** What a pattern on the linear-time engine checks first: its (rewritten) source's texts. */
export function linearNeeds(source: string): RequiredTexts | null {
  return requiredTexts(REWRITES[source]?.pattern ?? source);
}

/** Needs as case-insensitive checks, or null when none. */
function checksOf(needs: RequiredTexts | null): RegExp[][] | null {
  const escape = (t: string) => t.replace(/[\\^$.*+?()[\]{}|/]/g, "\\$&");
  return needs?.map((texts) =>
    texts.map((t) => new RegExp(typeof t === "string" ? escape(t) : t.map(escape).join("|"), "i"))
  ) ?? null;
}

/** Whether `text` holds all the needs of one alternative at least (true when none known). */
function holds(needs: RegExp[][] | null, text: string): boolean {
  return !needs || needs.some((checks) => checks.every((check) => check.test(text)));
}

/** A compiled pattern. */
export class TechPattern {
  #regex: PatternRegex | undefined;
  #anchored: boolean | undefined;
  #maxLength: number | undefined;
  constructor(
    /** The pattern as written (without its `\;` attributes), for evidence. */
    readonly source: string,
    /**
     * Lowercase texts one of which every match contains (≥ 3 chars each: one per top-level
     * alternative), or null when none could be derived.
     */
    readonly literals: string[] | null,
    /** `\;version:` template (`\1`, `\1?a:b`), "" when none. */
    readonly version: string,
    /** `\;confidence:`, default 100. */
    readonly confidence: number,
    /** Runs on the linear-time engine (the build found that it could backtrack). */
    readonly linear = false,
    /** A linear pattern's `linearNeeds`, as the build computed them (undefined: derived). */
    readonly needs?: RequiredTexts | null,
  ) {}

  /**
   * Has a `^` or `$`: a window's edges would look like the text's, so such a pattern runs on
   * the whole text rather than near its literals (tech_detect.ts).
   */
  get anchored(): boolean {
    return this.#anchored ??= hasAnchor(this.source);
  }

  /**
   * The most characters a match can span (`maxMatchLength`; Infinity: unbounded or unknown),
   * worked out on first use.
   */
  get maxLength(): number {
    return this.#maxLength ??= maxMatchLength(boundQuantifiers(this.source));
  }

  /**
   * Built on first use and kept: most of the rule set's thousands of patterns never run on a
   * given page (their literal is not there), so they need no RegExp object.
   */
  get regex(): PatternRegex {
    return this.#regex ??= this.linear
      ? new LinearRegex(this.source, true, this.needs)
      : new RegExp(boundQuantifiers(this.source), "i");
  }
}

/** Longest literal kept for the prefilter (a longer one only costs automaton states). */
const MAX_LITERAL = 16;

/**
 * Compiles one pattern string; null when its regex is invalid in JavaScript (the rule set
 * is written for it, so this is rare; such a pattern is skipped rather than failing all).
 */
export function compilePattern(raw: string | number): TechPattern | null {
  const [source, ...attrs] = String(raw).split("\\;");
  let version = "";
  let confidence = 100;
  for (const attr of attrs) {
    const at = attr.indexOf(":");
    if (at < 0) continue;
    const key = attr.slice(0, at);
    const value = attr.slice(at + 1);
    if (key === "version") version = value;
    if (key === "confidence") confidence = Number.parseInt(value, 10) || 0;
  }
  try {
    // Only checked here; the pattern builds its own when it first runs (see `regex`).
    new RegExp(boundQuantifiers(source), "i");
  } catch {
    return null;
  }
  return new TechPattern(source, requiredLiterals(source), version, confidence);
}

/**
 * Whether `source` has a `^` or `$` anchor (outside a character class and not escaped: the
 * `^` of `[^>]` negates a class and anchors nothing).
 */
export function hasAnchor(source: string): boolean {
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "[") {
      // Past the class, its own `^` included (JavaScript's `[]` and `[^]` end at that `]`).
      i = classEnd(source, i);
    } else if (ch === "^" || ch === "$") return true;
  }
  return false;
}

/**
 * The most UTF-16 code units a match of `source` (a JavaScript regular expression) can span:
 * Infinity when a quantifier is unbounded, or a back-reference or look-around (which reads
 * text outside the match) makes it unknown. A window this wide around a literal holds every
 * match through it (tech_detect.ts).
 */
export function maxMatchLength(source: string): number {
  let i = 0;
  /** Alternatives up to `)` or the end: the longest. */
  const alternation = (): number => {
    let most = sequence();
    while (source[i] === "|") {
      i++;
      most = Math.max(most, sequence());
    }
    return most;
  };
  /** Atoms, each times its quantifier, up to `|`, `)` or the end. */
  const sequence = (): number => {
    let total = 0;
    while (i < source.length && source[i] !== "|" && source[i] !== ")") {
      total += atom() * quantifier();
    }
    return total;
  };
  const atom = (): number => {
    const ch = source[i++];
    if (ch === "\\") {
      const next = source[i++] ?? "";
      if (next === "b" || next === "B") return 0;
      if (/[1-9k]/.test(next)) return Infinity; // a back-reference: its group's length
      if (next === "x") i += 2;
      else if (next === "u") i += source[i] === "{" ? source.indexOf("}", i) + 1 - i : 4;
      else if (next === "c") i++;
      return 1;
    }
    if (ch === "[") {
      i = classEnd(source, i - 1) + 1;
      return 1;
    }
    if (ch === "^" || ch === "$") return 0;
    if (ch === "(") {
      const lookAround = /^\?(?:=|!|<=|<!)/.test(source.slice(i, i + 3));
      if (source[i] === "?") {
        i += source[i + 1] === "<" && !lookAround ? source.indexOf(">", i) + 1 - i : 2;
      }
      const inner = alternation();
      i++; // the `)`
      return lookAround ? Infinity : inner;
    }
    return 1;
  };
  /** The most times the quantifier at `i` repeats its atom (1: none). */
  const quantifier = (): number => {
    let most = 1;
    const ch = source[i];
    if (ch === "?") [most, i] = [1, i + 1];
    else if (ch === "*" || ch === "+") [most, i] = [Infinity, i + 1];
    else if (ch === "{") {
      const m = /^\{(\d+)(,(\d*))?\}/.exec(source.slice(i));
      if (!m) return 1; // a literal `{`
      most = m[2] === undefined ? Number(m[1]) : m[3] ? Number(m[3]) : Infinity;
      i += m[0].length;
    } else return 1;
    if (source[i] === "?") i++; // lazy
    return most;
  };
  const length = alternation();
  // An unbalanced `)` ends the walk early: unknown.
  return i < source.length ? Infinity : length;
}

/** `+` → `{1,250}` and `*` → `{0,250}` where they are quantifiers (not escaped, not in `[]`). */
export function boundQuantifiers(source: string): string {
  let out = "";
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") {
      out += ch + (source[i + 1] ?? "");
      i++;
    } else if (inClass) {
      if (ch === "]") inClass = false;
      out += ch;
    } else if (ch === "[") {
      inClass = true;
      out += ch;
    } else if (ch === "+") out += "{1,250}";
    else if (ch === "*") out += "{0,250}";
    else out += ch;
  }
  return out;
}

/**
 * One required literal per top-level alternative (`a|b`, or `(?:a|b)` as the whole pattern);
 * null when any alternative has none.
 */
export function requiredLiterals(source: string): string[] | null {
  let body = source;
  // A pattern that is one non-capturing or capturing group: look inside it.
  const whole = /^\((?:\?:)?/.exec(body);
  if (whole && closingParen(body, 0) === body.length - 1) body = body.slice(whole[0].length, -1);
  const branches = splitTopLevel(body);
  const out: string[] = [];
  for (const branch of branches) {
    const run = requiredLiteral(branch);
    const group = groupLiterals(branch);
    // `class="` is in every page, `uk-container|uk-section` in few: take the rarer.
    const literals = run && (!group || score(run) >= score(group)) ? run : group;
    if (!literals) return null;
    out.push(...literals);
  }
  return out;
}

/** Words all markup is full of: a literal made of them alone lets nearly every page through. */
const MARKUP_WORDS =
  /<\/?[a-z]+|\b(?:class|id|href|src|rel|type|content|name|style|target|div|span|script|link|meta|img|iframe|stylesheet|text|javascript|https?)\b/g;

/**
 * How telling a literal is for the prefilter: its letters and digits outside markup words
 * (`<div class=` scores 0, `dynamicdiv` 10), then its length.
 */
function rarity(literal: string): number {
  return literal.replace(MARKUP_WORDS, "").replace(/[^a-z0-9]/g, "").length * 100 +
    literal.length;
}

/** A set of alternative literals is as telling as its least telling one. */
function score(literals: string[]): number {
  return Math.min(...literals.map(rarity));
}

/**
 * The literals of a required top-level group's alternatives (`<[^>]+(?:assets|images)\.`), or
 * of its plain-text alternatives joined to the text after it (`(?:feed|components)/com_` is
 * `feed/com_` or `components/com_`, not `feed`, which feed pages are full of), choosing the
 * least telling literal that is the most telling; null when no group has literals in every
 * alternative.
 */
function groupLiterals(branch: string): string[] | null {
  let best: string[] | null = null;
  for (const { group, end } of mandatoryGroups(branch)) {
    const joined = joinedTexts(group, branch.slice(end))?.map(distinctive);
    for (const literals of [requiredLiterals(group), joined]) {
      if (!literals || literals.some((literal) => literal.length < 3)) continue;
      if (!best || score(literals) > score(best)) best = literals;
    }
  }
  return best;
}

/**
 * A group of plain-text alternatives, each joined to the plain text right after the group
 * (`after`; none when a character that is not plain text follows), lowercased: a match
 * contains one of them. Null when an alternative is not plain text.
 */
function joinedTexts(group: string, after: string): string[] | null {
  const alternatives = splitTopLevel(groupBody(group)).map((a) => leadingText(a, true));
  const next = leadingText(after, false);
  if (next === null || alternatives.some((a) => a === null)) return null;
  return [...new Set(alternatives.map((a) => a + next))];
}

/**
 * The top-level groups of `branch` that a match must pass through (not optional, no
 * look-around), in order: each group's source with its parentheses, and where it ends. The walk
 * stops at a group that does not close.
 */
function mandatoryGroups(branch: string): { group: string; end: number }[] {
  const out: { group: string; end: number }[] = [];
  for (let i = 0; i < branch.length; i++) {
    const ch = branch[i];
    if (ch === "\\") {
      i++;
      continue;
    }
    if (ch === "[") {
      i = classEnd(branch, i);
      continue;
    }
    if (ch !== "(") continue;
    const close = closingParen(branch, i);
    if (close < 0) break;
    const group = branch.slice(i, close + 1);
    const after = branch[close + 1];
    const optional = after === "?" || after === "*" || /^\{0?,/.test(branch.slice(close + 1));
    if (!optional && !/^\(\?[=!<]/.test(group)) out.push({ group, end: close + 1 });
    i = close;
  }
  return out;
}

/**
 * Index of the `]` that closes the character class opened at `open` (escapes inside skipped),
 * or the end of `source` when none does.
 */
function classEnd(source: string, open: number): number {
  let i = open + 1;
  while (i < source.length && source[i] !== "]") i += source[i] === "\\" ? 2 : 1;
  return i;
}

/** Index of the `)` that closes the `(` at `open`, or -1. */
function closingParen(source: string, open: number): number {
  let depth = 0;
  for (let i = open; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "[") i = classEnd(source, i);
    else if (ch === "(") depth++;
    else if (ch === ")" && --depth === 0) return i;
  }
  return -1;
}

/** `source` split at its top-level `|`. */
function splitTopLevel(source: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    if (ch === "\\") i++;
    else if (ch === "[") i = classEnd(source, i);
    else if (ch === "(") depth++;
    else if (ch === ")") depth--;
    else if (ch === "|" && depth === 0) {
      parts.push(source.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(source.slice(start));
  return parts;
}

/** Escapes whose character stands for itself. */
const LITERAL_ESCAPE = /[\\/.\-?+*()[\]{}|^$'"=:#@!%&,;<>~` _]/;

/** Most spellings one run may have (each single optional character doubles them). */
const MAX_SPELLINGS = 4;

/**
 * The most telling run of literal text (see `rarity`) that every match of `source`
 * contains, lowercased, as its spellings (`wss?://` is `ws://` or `wss://`), or null.
 * Conservative: a top-level `|` yields null, groups and classes end a run, and a character
 * made optional by `*` or `{0,` ends it.
 */
export function requiredLiteral(source: string): string[] | null {
  const runs = literalRuns(source);
  if (runs === null) return null;
  let best: string[] | null = null;
  for (const r of runs) {
    if (r.some((spelling) => spelling.length < 3)) continue;
    const spellings = [...new Set(r.map((spelling) => distinctive(spelling.toLowerCase())))];
    if (!best || score(spellings) > score(best)) best = spellings;
  }
  return best;
}

/**
 * Every run of literal text that each match of `source` contains (each as its spellings, as
 * written; ≥ `min` chars in one spelling at least), or null when `source` has a top-level `|`.
 */
function literalRuns(source: string, min = 3): string[][] | null {
  const runs: string[][] = [];
  let run = [""];
  const endRun = () => {
    if (run.some((r) => r.length >= min)) runs.push(run);
    run = [""];
  };
  let depth = 0;
  for (let i = 0; i < source.length; i++) {
    const ch = source[i];
    let literal: string | null = null;
    if (ch === "\\") {
      const next = source[i + 1] ?? "";
      i++;
      if (depth === 0 && LITERAL_ESCAPE.test(next)) literal = next;
      else if (depth === 0) endRun();
    } else if (ch === "[") {
      i = classEnd(source, i);
      if (depth === 0) endRun();
    } else if (ch === "(") {
      depth++;
      endRun();
    } else if (ch === ")") {
      depth = Math.max(0, depth - 1);
      endRun();
    } else if (ch === "|") {
      if (depth === 0) return null;
    } else if (depth > 0) {
      continue;
    } else if (ch === "?" || ch === "*") {
      // After a group or class (already ended), or a lazy quantifier.
      endRun();
    } else if (ch === "{") {
      const m = /^\{(\d*)(?:,\d*)?\}/.exec(source.slice(i));
      if (m) {
        endRun();
        i += m[0].length - 1;
      } else literal = ch;
    } else if (ch === "+") {
      endRun();
    } else if (ch === "." || ch === "^" || ch === "$") {
      endRun();
    } else literal = ch;
    if (literal !== null && depth === 0) {
      // A quantifier right after this char decides whether it is required.
      const after = source[i + 1];
      if (after === "?" && source[i + 2] !== "?" && run.length < MAX_SPELLINGS) {
        run = run.flatMap((r) => [r, r + literal]);
        i++;
      } else if (
        after === "?" || after === "*" || (after === "{" && /^\{0?,/.test(source.slice(i + 1)))
      ) {
        endRun();
      } else for (let k = 0; k < run.length; k++) run[k] += literal;
    }
  }
  endRun();
  return runs;
}

/**
 * Per top-level alternative of `source`, every literal text (lowercased, ≥ 2 chars) a match of
 * that alternative contains; null when an alternative has none. A text without all of one
 * alternative's cannot match: a check far cheaper than a run on re2js (on an instance's first
 * page, a run over a 2 KiB window took 25-45 ms of its code not yet compiled). Two characters
 * count here (unlike the prefilter's literals): `p5` and `.js` rule out nearly every script URL
 * that `.js` alone lets through. A run of several spellings gives what they all share, the
 * longer of their common start and end: `>Django ?` needs `>django`, `wss?://x` needs `s://x`.
 * A required group of alternatives taken once (the first such) makes one alternative of the
 * result per alternative of it, each with its own texts: `/\d+/jquery(?:\.popupoverlay\.js|
 * (?:\.[\w-]*)*fancybox)` needs `/jquery.popupoverlay.js`, or `/jquery` and `fancybox`. Any
 * other required group whose alternatives each have a prefilter literal needs one of them (an
 * array).
 */
export function requiredTexts(source: string): RequiredTexts | null {
  let body = source;
  const whole = /^\((?:\?:)?/.exec(body);
  if (whole && closingParen(body, 0) === body.length - 1) body = body.slice(whole[0].length, -1);
  const out: (string | string[])[][] = [];
  for (const branch of splitTopLevel(body)) {
    // A match passes through one alternative of the branch's first required group: as many
    // branches, each needing its own texts, when each has some (`<[^>]+/(?:hybr|_ui/…(?:desktop|
    // common))/` needs `/hybr/`, or `/_ui/` and `desktop` or `common`: not merely one of
    // `hybr`, `desktop`, `common`, words most pages hold).
    const spread = spreadGroup(branch)?.map(branchTexts);
    if (spread && spread.every((texts) => texts.length > 0)) out.push(...spread);
    else {
      const texts = branchTexts(branch);
      if (texts.length === 0) return null;
      out.push(texts);
    }
  }
  return out;
}

/** The texts a match of `branch` (no top-level `|`) contains, as `requiredTexts` gives them. */
function branchTexts(branch: string): (string | string[])[] {
  const texts: (string | string[])[] = (literalRuns(branch, 2) ?? [])
    .map((spellings) => shared(spellings.map((r) => r.toLowerCase())))
    .filter((text) => text.length >= 2);
  texts.push(...requiredGroups(branch));
  return texts;
}

/** What a group (`(…)` or `(?:…)`, as `mandatoryGroups` gives them) holds. */
function groupBody(group: string): string {
  return group.slice(group.startsWith("(?:") ? 3 : 1, -1);
}

/** Most alternatives a group is spread into (`spreadGroup`). */
const MAX_SPREAD = 8;

/**
 * `branch` once per alternative of its first required group of alternatives that is taken
 * exactly once (no quantifier after it), the alternative in the group's place; null when it
 * has none, or more than MAX_SPREAD alternatives. A match of `branch` is a match of one of them.
 */
function spreadGroup(branch: string): string[] | null {
  for (const { group, end } of mandatoryGroups(branch)) {
    if (/^[?*+{]/.test(branch.slice(end))) continue;
    const alternatives = splitTopLevel(groupBody(group));
    if (alternatives.length < 2) continue;
    if (alternatives.length > MAX_SPREAD) return null;
    const start = end - group.length;
    return alternatives.map((a) => branch.slice(0, start) + a + branch.slice(end));
  }
  return null;
}

/**
 * Per group a match of `branch` must pass through (not optional, no look-around), the
 * prefilter's literals of its alternatives when each has one: a match contains one of them.
 */
function requiredGroups(branch: string): string[][] {
  const out: string[][] = [];
  for (const { group, end } of mandatoryGroups(branch)) {
    const literals = requiredLiterals(group);
    if (literals && literals.length > 1) out.push(literals);
    else {
      // Alternatives of plain text (`(?:/|-)`), each joined to the text right after the
      // group: `(?:/|-)dc` needs `/dc` or `-dc`.
      const joined = joinedTexts(group, branch.slice(end));
      if (joined && joined.every((text) => text.length >= 2)) out.push(joined);
    }
  }
  return out;
}

/**
 * The plain text `source` starts with, lowercased: characters up to the first that is not
 * literal, without one a quantifier makes optional (`ab?` is `a`; `ab+`, `ab`). `whole`: all
 * of `source` must be plain text, else null.
 */
function leadingText(source: string, whole: boolean): string | null {
  let text = "";
  for (let i = 0; i < source.length; i++) {
    let ch = source[i];
    if (ch === "\\") {
      if (!LITERAL_ESCAPE.test(source[i + 1] ?? "")) return whole ? null : text.toLowerCase();
      ch = source[++i];
    } else if ("[](){}|?*+.^$".includes(ch)) return whole ? null : text.toLowerCase();
    const after = source[i + 1];
    if (after === "?" || after === "*" || after === "{" || after === "+") {
      if (whole) return null;
      return (after === "+" ? text + ch : text).toLowerCase();
    }
    text += ch;
  }
  return text.toLowerCase();
}

/** The longer of the start and the end that all `spellings` share. */
function shared(spellings: string[]): string {
  const [first, ...rest] = spellings;
  let start = first.length;
  let end = first.length;
  for (const other of rest) {
    let k = 0;
    while (k < start && k < other.length && other[k] === first[k]) k++;
    start = k;
    k = 0;
    while (k < end && k < other.length && other.at(-1 - k) === first.at(-1 - k)) k++;
    end = k;
  }
  return start >= end ? first.slice(0, start) : first.slice(first.length - end);
}

/**
 * The most telling `MAX_LITERAL` characters of a long literal (`www.tsoft.com.tr`, not the
 * `<a href="http://` every page has).
 */
function distinctive(literal: string): string {
  if (literal.length <= MAX_LITERAL) return literal;
  let best = 0;
  let bestScore = -1;
  for (let i = 0; i + MAX_LITERAL <= literal.length; i++) {
    const score = rarity(literal.slice(i, i + MAX_LITERAL));
    if (score >= bestScore) {
      best = i;
      bestScore = score;
    }
  }
  return literal.slice(best, best + MAX_LITERAL);
}

/** The version a match gives by `template` (`\1`, `\1?yes:no`); "" when none. */
export function resolveVersion(template: string, match: RegExpExecArray): string {
  if (!template) return "";
  let resolved = template;
  match.forEach((group, index) => {
    // Long groups are not versions (wappalyzer-core skips them too).
    if (group !== undefined && group.length > 10) return;
    const ternary = new RegExp(`\\\\${index}\\?([^:]+):(.*)$`).exec(resolved);
    if (ternary) resolved = resolved.replace(ternary[0], group ? ternary[1] : ternary[2]);
    resolved = resolved.trim().replace(new RegExp(`\\\\${index}(?!\\d)`, "g"), group ?? "");
  });
  return resolved.replace(/\\\d+/g, "").trim();
}
