/**
 * The detection engine: runs the rule table (rules.ts) over what a page exposes and folds
 * the matches into one entry per library and version. It knows nothing about any library.
 */
import { compile } from "css-select";
import { parse as parseSelector } from "css-what";
import { COMBINATORS, selectorKey, selectorKeyValue } from "../../shared/net/selector_key.ts";
import { Element } from "domhandler";
import { cooperative } from "../../shared/contract/cooperative.ts";
import { type Document, parseHtml, selectFirst } from "../../shared/net/html.ts";
import { ALIASES, type Rule, RULES } from "./rules.ts";
import { requiredLiterals } from "./tech_patterns.ts";
import type { Evidence } from "./schema.ts";

/** What a page exposes to the rules. */
export interface DetectionInput {
  /** Absolute URLs the page loads (scripts, stylesheets, preloads, import-map targets). */
  urls: readonly string[];
  /** `<meta name="generator">` contents. */
  generators?: readonly string[];
  /** The parsed page, for `selector` rules (when `selected` is not given). */
  doc?: Document;
  /** Per `selector` rule id, the first element it matched (from `selectorMatcher`'s walk). */
  selected?: ReadonlyMap<string, Element>;
  /** The page text, for `html` rules. */
  html?: string;
  /**
   * Whether the page text holds a literal (lowercase, ASCII case-insensitively), from a pass
   * already made over it: an `html` rule whose literals it lacks is not run. Absent: every
   * `html` rule runs.
   */
  htmlHas?: (literal: string) => boolean;
}

/** A rule's verdict on one input. */
export interface RuleMatch {
  name: string;
  version: string | null;
  /** What matched, reported as evidence. */
  value: string;
}

interface Hit extends RuleMatch {
  rule: string;
  source: string;
  confidence: number;
  implies: readonly string[];
}

/** How much of a matched text goes into evidence. */
const MAX_EVIDENCE_CHARS = 200;

/**
 * Applies one rule to one input: a string for `url`, `generator` and `html` rules, a parsed
 * document (or HTML text, parsed here) for `selector` rules. Null when it does not match.
 */
export function matchRule(rule: Rule, input: string | Document | Element): RuleMatch | null {
  if (rule.on === "selector") {
    let el: Element | null;
    if (typeof input !== "string" && input.type !== "root") el = input as Element;
    else {
      const doc = typeof input === "string" ? parseHtml(input) : input as Document;
      el = rule.selector ? selectFirst(doc, rule.selector) : null;
    }
    if (!el) return null;
    const version = rule.versionAttr ? el.attribs[rule.versionAttr]?.trim() || null : null;
    const value = rule.versionAttr && version
      ? `${rule.versionAttr}="${version}"`
      : (rule.selector as string);
    return named(rule.name, version, value);
  }
  if (typeof input !== "string" || !rule.pattern) return null;
  const m = rule.pattern.exec(input);
  if (!m) return null;
  const value = rule.on === "html" ? m[0] : input;
  const captured = m.groups?.name;
  // Names captured from URLs are npm-style (lowercase); fixed names are kept as written.
  const name = captured ? canonicalName(captured, rule.on === "url") : rule.name;
  return named(name, m.groups?.version ?? null, value);
}

function named(
  name: string | undefined,
  rawVersion: string | null,
  value: string,
): RuleMatch | null {
  if (!name) return null;
  return {
    name,
    version: rawVersion ? rawVersion.replace(/^v(?=\d)/, "") : null,
    value: value.length > MAX_EVIDENCE_CHARS ? value.slice(0, MAX_EVIDENCE_CHARS) + "…" : value,
  };
}

/** The name a library is reported under: CDN catalogue names mapped to npm names. */
export function canonicalName(raw: string, fromUrl: boolean): string {
  const name = fromUrl ? raw.toLowerCase() : raw.trim();
  return ALIASES[name.toLowerCase()] ?? name;
}

/**
 * Runs every rule over `input` and returns the detected libraries, sorted by name. `yieldSoon`
 * is called every 256 URLs matched (a page may hold 150,000 distinct ones): the request's
 * cooperative yield, which also checks its time budget.
 */
export async function detectLibraries(
  input: DetectionInput,
  rules: readonly Rule[] = RULES,
  yieldSoon: () => Promise<void> = cooperative(),
): Promise<RuleLibrary[]> {
  const hits: Hit[] = [];
  const add = (rule: Rule, m: RuleMatch | null) => {
    if (m) {
      hits.push({
        ...m,
        rule: rule.id,
        source: SOURCE[rule.on],
        confidence: rule.confidence,
        implies: rule.implies ?? [],
      });
    }
  };
  // A repeated value matches as it did the first time: each distinct one is tried once.
  const urls = new Set(input.urls);
  const generators = new Set(input.generators);
  let generatorMatched = false;
  let matched = 0;
  for (const rule of rules) {
    if (rule.on === "url") {
      for (const url of urls) {
        if (++matched % 256 === 0) await yieldSoon();
        add(rule, matchRule(rule, url));
      }
    }
    if (rule.on === "generator" && !rule.fallback) {
      for (const g of generators) {
        const m = matchRule(rule, g);
        generatorMatched ||= m !== null;
        add(rule, m);
      }
    }
    if (rule.on === "selector") {
      const el = input.selected ? input.selected.get(rule.id) : input.doc;
      if (el) add(rule, matchRule(rule, el));
    }
    if (rule.on === "html" && input.html !== undefined && mayMatch(rule, input.htmlHas)) {
      add(rule, matchRule(rule, input.html));
    }
  }
  // A catch-all generator rule only speaks when no specific one recognised the generator.
  if (!generatorMatched) {
    for (const rule of rules.filter((r) => r.on === "generator" && r.fallback)) {
      for (const g of generators) add(rule, matchRule(rule, g));
    }
  }
  return fold(withImplied(hits));
}

/** Each `html` rule's literals (`requiredLiterals`: every match holds one), null when none. */
const LITERALS = new WeakMap<Rule, string[] | null>();

function literalsOf(rule: Rule): string[] | null {
  let literals = LITERALS.get(rule);
  if (literals === undefined) LITERALS.set(rule, literals = requiredLiterals(rule.pattern!.source));
  return literals;
}

/**
 * Whether an `html` rule can match a page that `htmlHas` tells the literals of: each of the 7
 * rules' regular expressions took 0.06-0.4 ms over the 500 KiB bench page, where none matched.
 */
function mayMatch(rule: Rule, htmlHas: ((literal: string) => boolean) | undefined): boolean {
  const literals = literalsOf(rule);
  return !htmlHas || !literals || literals.some(htmlHas);
}

/**
 * The literals of the `html` rules of `rules`: the rule set's page prefilter finds them too
 * (bench/tech_rules/build.ts), so a page is read once for both tables.
 */
export function htmlRuleLiterals(rules: readonly Rule[] = RULES): string[] {
  return rules.filter((r) => r.on === "html" && r.pattern).flatMap((r) => literalsOf(r) ?? []);
}

/** Adds a hit for each library that a detected one implies (Next.js → React). */
function withImplied(hits: Hit[]): Hit[] {
  const out = [...hits];
  const seen = new Set<string>();
  for (const hit of hits) {
    for (const name of hit.implies) {
      const key = `${hit.name}→${name}`;
      if (seen.has(key)) continue;
      seen.add(key);
      const confidence = Math.max(
        ...hits.filter((h) => h.name === hit.name).map((h) => h.confidence),
      );
      out.push({
        name,
        version: null,
        value: hit.name,
        rule: "implied",
        source: "implies",
        confidence,
        implies: [],
      });
    }
  }
  return out;
}

/** Where each kind of rule looks, as evidence `source`. */
const SOURCE: Record<Rule["on"], string> = {
  url: "url",
  generator: "meta:generator",
  selector: "dom",
  html: "html",
};

/**
 * Tests elements against every `selector` rule: the page's streaming parse calls it per
 * element and it keeps each rule's first match, so no rule walks the page on its own. An
 * element is tested only against the rules that could match it, found by its tag name or one
 * of its attribute names (every compound selector names one or the other; most elements name
 * none the rules need). The element is built only then, and a rule's selector is compiled
 * (once) when an element first needs it: compiling all ten took 3-8 ms of an instance's first
 * page, for rules most pages never reach. A selector rule tests one element, without its
 * ancestors: a combinator (`a > b`) is refused here.
 */
export function selectorMatcher(rules: readonly Rule[] = RULES) {
  /** Tag name → the tests that need it, attribute name → the tests that need it. */
  const byTag = new Map<string, SelectorTest[]>();
  const byAttribute = new Map<string, SelectorTest[]>();
  const always: SelectorTest[] = [];
  /** Attribute name → the values its tests need (null: any value). */
  const values = new Map<string, Set<string> | null>();
  for (const rule of rules) {
    if (rule.on !== "selector" || !rule.selector) continue;
    const test: SelectorTest = { id: rule.id, selector: rule.selector };
    const keyed = new Set<SelectorTest[]>();
    for (const compound of parseSelector(rule.selector)) {
      if (compound.some((t) => COMBINATORS.has(t.type))) {
        throw new Error(`selector rule ${rule.id}: a combinator needs ancestors`);
      }
      const key = selectorKey([compound]);
      if (key === null) keyed.add(always);
      else keyed.add(listIn(key[0] === "<" ? byTag : byAttribute, key.slice(1)));
      if (key?.[0] === "@") {
        const name = key.slice(1);
        const value = selectorKeyValue([compound]);
        const known = values.get(name);
        values.set(name, value === null || known === null ? null : (known ?? new Set()).add(value));
      }
    }
    for (const list of keyed) list.push(test);
  }
  /**
   * The tags, and attribute names with the values (null: any), the rules need elements by (a
   * parse may open any other element without its attributes: it could match no rule); null
   * when some rule names neither.
   */
  const reads = always.length > 0 ? null : { tags: new Set(byTag.keys()), attributes: values };
  const start = () => {
    const selected = new Map<string, Element>();
    // Tests read one element each: a page's thousands of elements share this one, and only
    // an element that matched is kept (as its own Element).
    const probe = new Element("", {});
    let el: Element | null = null;
    const run = (
      tests: SelectorTest[] | undefined,
      name: string,
      attribs: Record<string, string>,
    ) => {
      if (!tests) return;
      for (const test of tests) {
        if (selected.has(test.id)) continue;
        test.matches ??= compile<Element, Element>(test.selector);
        if (!test.matches(probe)) continue;
        el ??= new Element(name, attribs);
        selected.set(test.id, el);
      }
    };
    return {
      selected,
      visit(name: string, attribs: Record<string, string>) {
        el = null;
        probe.name = name;
        probe.attribs = attribs;
        run(always, name, attribs);
        run(byTag.get(name), name, attribs);
        for (const attribute in attribs) run(byAttribute.get(attribute), name, attribs);
      },
    };
  };
  return Object.assign(start, { reads });
}

/** A selector rule, compiled on first use. */
interface SelectorTest {
  id: string;
  selector: string;
  matches?: (el: Element) => boolean;
}

function listIn(map: Map<string, SelectorTest[]>, key: string): SelectorTest[] {
  let list = map.get(key);
  if (!list) map.set(key, list = []);
  return list;
}

/** A library as the project's own rules report it (before the rule set names it). */
export interface RuleLibrary {
  name: string;
  version: string | null;
  confidence: number;
  evidence: Evidence[];
}

/**
 * One library per name and version. Hits without a version join the first versioned entry
 * of the same name (a `/_next/` path and `__NEXT_DATA__` are the same Next.js); each rule
 * appears once in an entry's evidence, with the first value it matched.
 */
function fold(hits: Hit[]): RuleLibrary[] {
  // One pass each, no copying: a page may repeat a tag 150,000 times (with as many versions).
  const byName = new Map<string, Hit[]>();
  for (const hit of hits) {
    const group = byName.get(hit.name);
    if (group) group.push(hit);
    else byName.set(hit.name, [hit]);
  }
  const libraries: RuleLibrary[] = [];
  for (const [name, group] of byName) {
    // Versions in order of appearance; hits without one join the first (or stand alone).
    const byVersion = new Map<string | null, Hit[]>();
    for (const h of group) {
      if (h.version !== null && !byVersion.has(h.version)) byVersion.set(h.version, []);
    }
    if (byVersion.size === 0) byVersion.set(null, []);
    const first = byVersion.keys().next().value!;
    for (const h of group) byVersion.get(h.version ?? first)!.push(h);
    for (const [version, mine] of byVersion) {
      const evidence: Evidence[] = [];
      const rulesSeen = new Set<string>();
      for (const h of mine) {
        if (rulesSeen.has(h.rule)) continue;
        rulesSeen.add(h.rule);
        evidence.push({ rule: h.rule, source: h.source, value: h.value });
      }
      const confidence = mine.reduce((most, h) => Math.max(most, h.confidence), -Infinity);
      libraries.push({ name, version, confidence, evidence });
    }
  }
  return libraries.sort((a, b) =>
    compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.version ?? "", b.version ?? "")
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/**
 * The library one URL names, by the most confident `url` rule that matches (a versioned
 * match wins a tie); null when no rule knows the URL.
 */
export function identifyUrl(url: string, rules: readonly Rule[] = RULES): RuleMatch | null {
  let best: { m: RuleMatch; confidence: number } | null = null;
  for (const rule of rules) {
    if (rule.on !== "url") continue;
    const m = matchRule(rule, url);
    if (!m) continue;
    const better = !best || rule.confidence > best.confidence ||
      (rule.confidence === best.confidence && m.version !== null && best.m.version === null);
    if (better) best = { m, confidence: rule.confidence };
  }
  return best?.m ?? null;
}
