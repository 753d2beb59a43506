/**
 * Runs the compiled technology rules (tech_rules.ts) over a page's static signals and
 * resolves the matches as Wappalyzer does: confidence summed per technology (at most 100),
 * the longest plausible version, `excludes`, `implies` (transitively) and `requires` /
 * `requiresCategory` (a technology that only counts next to another).
 */
import {
  type CompiledPattern,
  type KeyedSignal,
  LONG_SIGNALS,
  type TechRules,
  type TextSignal,
} from "./tech_rules.ts";
import { execLoading, resolveVersion } from "./tech_patterns.ts";
import type { Evidence } from "./schema.ts";

/** What a page exposes to the rules, gathered in one walk of the parsed page. */
export interface PageSignals {
  /** The final URL. */
  url: string;
  /** The page text as fetched. */
  html: string;
  /** Absolute `src` of every `<script src>`. */
  scriptSrc: string[];
  /** Text of every inline `<script>`. */
  scripts: string[];
  /** Text of every `<style>`. */
  css: string[];
  /** Lowercased meta `name`/`property` → contents. */
  meta: Map<string, string[]>;
  /** Lowercased response header name → values. */
  headers: Map<string, string[]>;
  /** Lowercased cookie name → values (from `Set-Cookie`). */
  cookies: Map<string, string[]>;
  /** The html signal's literal index over `html` (`index.find`), when the caller ran it. */
  htmlLiterals?: Map<number, number[]>;
}

/** A technology found on the page. */
export interface TechDetection {
  name: string;
  categories: string[];
  confidence: number;
  /** "" when no rule gave one. */
  version: string;
  evidence: Evidence[];
}

interface Hit {
  pattern: CompiledPattern;
  source: string;
  value: string;
  version: string;
}

/** How much of a matched text goes into evidence. */
const MAX_EVIDENCE_CHARS = 200;
/** How much of a pattern names the rule in evidence. */
const MAX_RULE_CHARS = 120;

function excerpt(text: string, max: number): string {
  return text.length > max ? text.slice(0, max) + "…" : text;
}

/** Characters either side of a literal's occurrence that a match may span. */
const WINDOW = 1024;
/**
 * Characters a window keeps past the longest match either side of it (a pattern whose
 * `maxLength` is known): what `\b` and the like read next to a match.
 */
const EDGE = 2;

/**
 * Runs a pattern over windows around its literals' occurrences in a long text instead of
 * over all of it: a `<[^>]+…` pattern retried at every `<` of a 500 KiB page costs
 * milliseconds; around the few places its literal occurs it costs microseconds. Every match
 * contains a literal, and bounded quantifiers keep matches far shorter than the window.
 * Windows are taken in text order (of all the pattern's literals: the match is the first on
 * the page, as over the whole text), and overlapping ones merged, so no text is scanned twice.
 * `endsOf` gives where a literal's occurrences end (from the literal index's pass: no search,
 * no lowercased copy). Async only for the one time a pattern loads the linear-time engine
 * (`execLoading`).
 */
async function execNear(
  pattern: CompiledPattern,
  text: string,
  endsOf: (literal: string) => readonly number[],
): Promise<RegExpExecArray | null> {
  if (!pattern.literals || pattern.anchored) return await execLoading(pattern.regex, text);
  const windows = windowsNear(pattern.literals, pattern.maxLength, endsOf);
  for (let i = 0; i < windows.length;) {
    const start = windows[i];
    let end = windows[i + 1];
    // Extend the window over the next ones it reaches.
    for (i += 2; i < windows.length && windows[i] <= end; i += 2) {
      end = Math.max(end, windows[i + 1]);
    }
    let m = execLoading(pattern.regex, text.slice(start, end));
    if (m instanceof Promise) m = await m;
    if (m) return m;
  }
  return null;
}

/**
 * The windows around `literals`' occurrences, as start and end pairs ordered by start: as wide
 * as a match of at most `maxLength` characters through the occurrence reaches when that is
 * less than WINDOW (a `<div[^>]+class="wp-block` match reaches 261 characters before its literal
 * and 250 after; its ±1024 windows had covered 98% of a page with 254 of them).
 */
function windowsNear(
  literals: readonly string[],
  maxLength: number,
  endsOf: (literal: string) => readonly number[],
): number[] {
  const windows: number[] = [];
  const tight = maxLength < WINDOW;
  for (const literal of literals) {
    // A match holding the occurrence [end - length, end) starts at end - maxLength or later
    // and ends by end - length + maxLength.
    const before = tight ? maxLength + EDGE : literal.length + WINDOW;
    const after = tight ? maxLength - literal.length + EDGE : WINDOW;
    for (const end of endsOf(literal)) windows.push(Math.max(0, end - before), end + after);
  }
  if (literals.length === 1) return windows; // one literal's ends come in order
  const order = Array.from({ length: windows.length / 2 }, (_, k) => k)
    .sort((a, b) => windows[2 * a] - windows[2 * b]);
  return order.flatMap((k) => [windows[2 * k], windows[2 * k + 1]]);
}

/** Runs every pattern whose literal occurs (or that has none) over the signals. */
export async function matchSignals(
  rules: TechRules,
  page: PageSignals,
  yieldSoon: () => Promise<void> = () => Promise.resolve(),
): Promise<Map<number, Hit[]>> {
  const hits = new Map<number, Hit[]>();
  const add = (pattern: CompiledPattern, source: string, value: string, m: RegExpExecArray) => {
    const row = hits.get(pattern.tech) ?? [];
    row.push({ pattern, source, value, version: resolveVersion(pattern.version, m) });
    hits.set(pattern.tech, row);
  };
  const texts: Record<TextSignal, string[]> = {
    html: [page.html],
    scriptSrc: page.scriptSrc,
    scripts: page.scripts.length > 0 ? [page.scripts.join("\n")] : [],
    css: page.css.length > 0 ? [page.css.join("\n")] : [],
    url: [page.url],
  };
  for (const signal of Object.keys(texts) as TextSignal[]) {
    const inputs = texts[signal];
    if (inputs.length === 0) continue;
    const set = rules.text[signal];
    await yieldSoon();
    // A repeated URL is searched once (150,000 copies of one script URL were a 6 MB text).
    const distinct = inputs.length > 1 ? [...new Set(inputs)] : inputs;
    const found = signal === "html" && page.htmlLiterals
      ? page.htmlLiterals
      : set.index.find(distinct.length === 1 ? distinct[0] : distinct.join("\n"));
    const candidates = set.candidates(found.keys());
    if (!LONG_SIGNALS.has(signal)) {
      // URLs (script sources, the page's): each runs only the patterns whose literal it
      // contains, as a page of thousands of scripts would otherwise run every candidate on
      // every URL; the matches are then taken in one pass's order (pattern, then URL). A URL
      // is evidence as a whole.
      const rank = new Map([...candidates].map((p, i) => [p, i]));
      const matches: { rank: number; at: number; pattern: CompiledPattern; m: RegExpExecArray }[] =
        [];
      // A URL repeated on the page is matched once (a page may repeat one script thousands
      // of times).
      const matchesOf = new Map<string, { pattern: CompiledPattern; m: RegExpExecArray }[]>();
      for (let at = 0; at < inputs.length; at++) {
        await yieldSoon();
        let own = matchesOf.get(inputs[at]);
        if (!own) {
          own = [];
          const literals = distinct.length === 1 ? found : set.index.find(inputs[at]);
          for (const pattern of set.candidates(literals.keys())) {
            let m = execLoading(pattern.regex, inputs[at]);
            if (m instanceof Promise) m = await m;
            if (m) own.push({ pattern, m });
          }
          matchesOf.set(inputs[at], own);
        }
        for (const { pattern, m } of own) {
          matches.push({ rank: rank.get(pattern)!, at, pattern, m });
        }
      }
      matches.sort((a, b) => a.rank - b.rank || a.at - b.at);
      for (const { pattern, at, m } of matches) {
        add(pattern, signal, excerpt(inputs[at], MAX_EVIDENCE_CHARS), m);
      }
      continue;
    }
    // Long texts (the page, its inline scripts and styles; one input each): near the literal,
    // and what matched is the evidence (a whole page is none).
    const [input] = inputs;
    const endsOf = (literal: string) => found.get(set.literalId(literal)!) ?? [];
    for (const pattern of candidates) {
      await yieldSoon();
      const m = await execNear(pattern, input, endsOf);
      if (m) add(pattern, signal, excerpt(m[0], MAX_EVIDENCE_CHARS), m);
    }
  }
  const keyed: Record<KeyedSignal, Map<string, string[]>> = {
    meta: page.meta,
    headers: page.headers,
    cookies: page.cookies,
  };
  let runs = 0;
  for (const signal of Object.keys(keyed) as KeyedSignal[]) {
    for (const [key, values] of keyed[signal]) {
      const patterns = rules.keyed[signal].get(key);
      if (!patterns) continue;
      // A value repeated (150,000 × the same meta tag) is the same evidence: matched once.
      const distinct = values.length > 1 ? [...new Set(values)] : values;
      for (const pattern of patterns) {
        for (const value of distinct) {
          if ((++runs & 255) === 0) await yieldSoon();
          let m = execLoading(pattern.regex, value);
          if (m instanceof Promise) m = await m;
          if (m) add(pattern, `${signal}:${key}`, excerpt(value, MAX_EVIDENCE_CHARS), m);
        }
      }
    }
  }
  return hits;
}

/** A technology while resolving. */
interface Resolving {
  tech: number;
  confidence: number;
  version: string;
  evidence: Evidence[];
}

/** Wappalyzer's choice among versions: the longest that looks like one. */
function betterVersion(current: string, candidate: string): string {
  return candidate.length > current.length && candidate.length <= 15 &&
      (Number.parseInt(candidate, 10) || 0) < 10000
    ? candidate
    : current;
}

/** Detects the technologies of a page (`yieldSoon` lets other requests run meanwhile). */
export async function detectTechnologies(
  rules: TechRules,
  page: PageSignals,
  yieldSoon?: () => Promise<void>,
): Promise<TechDetection[]> {
  const hits = await matchSignals(rules, page, yieldSoon);
  const conditional = (t: number) =>
    rules.tech(t).requires.length > 0 || rules.tech(t).requiresCategory.length > 0;
  let eligible = new Set([...hits.keys()].filter((t) => !conditional(t)));
  let resolved = resolve(rules, hits, eligible);
  // Conditional technologies join once what they require is there; repeat until stable.
  for (let round = 0; round < 5; round++) {
    const names = new Set(resolved.map((r) => rules.name(r.tech)));
    const categories = new Set(resolved.flatMap((r) => rules.tech(r.tech).categories));
    const next = new Set(eligible);
    for (const t of hits.keys()) {
      const tech = rules.tech(t);
      if (!conditional(t)) continue;
      if (
        tech.requires.some((n) => names.has(n)) ||
        tech.requiresCategory.some((c) => categories.has(c))
      ) {
        next.add(t);
      }
    }
    if (next.size === eligible.size) break;
    eligible = next;
    resolved = resolve(rules, hits, eligible);
  }
  return resolved.map((r) => ({
    name: rules.name(r.tech),
    categories: rules.tech(r.tech).categories,
    confidence: r.confidence,
    version: r.version,
    evidence: r.evidence,
  }));
}

/** Folds hits per technology, then applies `excludes` and `implies`. */
function resolve(rules: TechRules, hits: Map<number, Hit[]>, eligible: Set<number>): Resolving[] {
  const out = new Map<number, Resolving>();
  for (const tech of eligible) {
    const r: Resolving = { tech, confidence: 0, version: "", evidence: [] };
    const seen = new Set<string>();
    for (const hit of hits.get(tech) ?? []) {
      r.confidence = Math.min(100, r.confidence + hit.pattern.confidence);
      r.version = betterVersion(r.version, hit.version);
      const rule = `webappanalyzer: ${excerpt(hit.pattern.source, MAX_RULE_CHARS)}`;
      // One evidence row per pattern and place.
      const key = `${rule}\u0000${hit.source}`;
      if (seen.has(key)) continue;
      seen.add(key);
      r.evidence.push({ rule, source: hit.source, value: hit.value });
    }
    out.set(tech, r);
  }
  for (const r of [...out.values()]) {
    for (const name of rules.tech(r.tech).excludes) {
      const t = rules.indexOf(name);
      if (t !== undefined) out.delete(t);
    }
  }
  // Implied technologies, transitively (the queue grows as they are added).
  const queue = [...out.values()];
  for (let i = 0; i < queue.length; i++) {
    const r = queue[i];
    for (const implied of rules.tech(r.tech).implies) {
      const t = rules.indexOf(implied.name);
      if (t === undefined || out.has(t)) continue;
      const added: Resolving = {
        tech: t,
        confidence: Math.min(r.confidence, implied.confidence),
        version: implied.version,
        evidence: [{ rule: "implied", source: "implies", value: rules.name(r.tech) }],
      };
      out.set(t, added);
      queue.push(added);
    }
  }
  return [...out.values()];
}
