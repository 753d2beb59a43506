/**
 * What an HTML page depends on: its scripts, stylesheets, resource hints, iframes and import
 * map, tallied per host, with the libraries the rule table recognises.
 */
import { Element, isText, Text } from "domhandler";
import { ApiError } from "../../shared/contract/errors.ts";
import {
  attr,
  cooperative,
  DEFAULT_PARSE_LIMITS,
  resolveUrl,
  streamPage,
} from "../../shared/net/html.ts";
import { isThirdParty } from "../../shared/net/hosts.ts";
import type { ParseInterest } from "../../shared/net/lean_parser.ts";
import { detectLibraries, selectorMatcher } from "./detect.ts";
import { importMapEntries } from "./import_map.ts";
import { mergeLibraries } from "./libraries.ts";
import { detectTechnologies, type PageSignals } from "./tech_detect.ts";
import { loadTechRules } from "./tech_rules.ts";
import type {
  HostEntry,
  Iframe,
  ImportMapEntry,
  PageResult,
  Preload,
  Script,
  Stylesheet,
} from "./schema.ts";
import { utf8Length } from "../../shared/net/utf8_length.ts";

/** The page analysis without the fetch fields (`url`, `status`...). */
export type PageAnalysis = Omit<
  PageResult,
  "url" | "finalUrl" | "status" | "fetchedAt" | "contentType" | "warnings" | "kind"
>;

/** What the response says besides its body (for header and cookie rules). */
export interface ResponseMeta {
  headers?: Headers;
  /** Raw `Set-Cookie` lines. */
  setCookies?: readonly string[];
}

/**
 * Milliseconds a page's parse and analysis may take together (`ANALYSIS_BUDGET_MS`): past it
 * the request ends with 502 PARSE_ERROR naming the bound (see README, "Time budget").
 */
export const DEFAULT_ANALYSIS_BUDGET_MS = DEFAULT_PARSE_LIMITS.maxMillis;

/** The `rel` tokens that make a `<link>` a resource hint. */
export const HINT_RELS = ["preload", "modulepreload", "prefetch", "preconnect", "dns-prefetch"];

/** `type` values under which a `<script>` runs as JavaScript (HTML's JavaScript MIME types). */
const JS_TYPE =
  /^(?:(?:text|application)\/(?:x-)?(?:java|ecma)script|text\/javascript1\.[0-5]|text\/(?:jscript|livescript)|module)$/;

/** Where a URL points, for the `host` / `thirdParty` fields. */
interface Origin {
  host: string | null;
  thirdParty: boolean;
}

/** The project's selector rules, compiled once. */
const newSelectorRun = selectorMatcher();

/** The elements the analysis reads, gathered in one pass of the parser. */
interface Gathered {
  scripts: Element[];
  links: Element[];
  styles: Element[];
  /** `<link>` and `<style>` in document order. */
  sheets: Element[];
  iframes: Element[];
  metas: Element[];
  base: Element | null;
  selected: ReadonlyMap<string, Element>;
}

/** The elements `gather` keeps. */
const GATHERED = new Set(["script", "style", "link", "iframe", "meta", "base"]);

/**
 * What `gather` reads of a page: the attributes of the elements it keeps and of those a
 * selector rule could match, and the text of scripts and styles (lean_parser.ts
 * `ParseInterest`); everything when a selector rule names neither a tag nor an attribute.
 */
const INTEREST: ParseInterest | undefined = newSelectorRun.reads
  ? {
    attributesOf: new Set([...GATHERED, ...newSelectorRun.reads.tags]),
    attributesWith: newSelectorRun.reads.attributes,
    textOf: new Set(["script", "style"]),
  }
  : undefined;

/**
 * Gathers the elements in one streaming parse (within the shared parse limits, over one:
 * 502 PARSE_ERROR). No tree of the page is built: an element the analysis reads becomes a
 * detached `Element` (name and attributes); a `<script>` or `<style>` gets its text as its
 * one child (the parser reads their content as raw text). The selector rules test one
 * element each, as it opens.
 */
async function gather(html: string, budgetMs: number): Promise<Gathered> {
  const selectors = newSelectorRun();
  const g: Gathered = {
    scripts: [],
    links: [],
    styles: [],
    sheets: [],
    iframes: [],
    metas: [],
    base: null,
    selected: selectors.selected,
  };
  /** The open `<script>` or `<style>` whose text is being read, and its depth. */
  let raw: Element | null = null;
  let rawDepth = 0;
  let text = "";
  let depth = 0;
  await streamPage(
    html,
    {
      interest: INTEREST,
      onopentag(name, attribs) {
        depth++;
        // Inside a <script> or <style> (foreign content): only their own text counts.
        if (raw) return;
        selectors.visit(name, attribs);
        if (!GATHERED.has(name)) return;
        const el = new Element(name, attribs);
        switch (name) {
          case "script":
            g.scripts.push(el);
            [raw, rawDepth] = [el, depth];
            break;
          case "style":
            g.styles.push(el);
            g.sheets.push(el);
            [raw, rawDepth] = [el, depth];
            break;
          case "link":
            g.links.push(el);
            if (attribs.rel !== undefined) g.sheets.push(el);
            break;
          case "iframe":
            g.iframes.push(el);
            break;
          case "meta":
            g.metas.push(el);
            break;
          case "base":
            if (!g.base && attr(el, "href")) g.base = el;
            break;
        }
      },
      ontext(data) {
        if (raw && depth === rawDepth) text += data;
      },
      onclosetag() {
        if (raw && depth === rawDepth) {
          raw.children.push(new Text(text));
          raw = null;
          text = "";
        }
        depth--;
      },
    },
    "PARSE_ERROR",
    { maxMillis: budgetMs },
  );
  return g;
}

/**
 * Analyses HTML fetched from `finalUrl`. URLs are resolved against `<base href>` when present.
 * `warn` hears about parts that could not be read (a broken import map). The page is parsed
 * once, within the shared parse limits (over one: 502 PARSE_ERROR), without a tree. Parse and
 * analysis share `budgetMs`: past it, 502 PARSE_ERROR naming the bound.
 */
export async function analyzePage(
  html: string,
  finalUrl: string,
  warn: (message: string) => void = () => {},
  response: ResponseMeta = {},
  budgetMs = DEFAULT_ANALYSIS_BUDGET_MS,
): Promise<PageAnalysis> {
  // Rules first: compiling them (first request only) must not count against the parse's time.
  const rules = await loadTechRules();
  const started = performance.now();
  const g = await gather(html, budgetMs);
  // Large pages: every step below yields to other requests every few milliseconds, and checks
  // the budget each time it is called (between rules, URLs, elements).
  const yieldSoon = cooperative(25, {
    endsAt: started + budgetMs,
    over: () => new ApiError("PARSE_ERROR", `Page took longer than ${budgetMs} ms to analyze`),
  });
  // Browsers ignore a <base href> that is not a fetchable URL (javascript:, data:).
  const declaredBase = g.base ? resolveUrl(attr(g.base, "href"), finalUrl) ?? finalUrl : finalUrl;
  const base = /^https?:/i.test(declaredBase) ? declaredBase : finalUrl;
  const pageHost = new URL(finalUrl).hostname;
  // Host → third party: a page's many URLs share few hosts; and URL → origin, as a page may
  // repeat one URL (150,000 <script src> of one URL parsed it 150,000 times).
  const thirdParty = new Map<string, boolean>();
  const origins = new Map<string, Origin>();
  const origin = (url: string | null): Origin => {
    if (!url) return originOf(url, pageHost, thirdParty);
    let known = origins.get(url);
    if (!known) origins.set(url, known = originOf(url, pageHost, thirdParty));
    return known;
  };

  const scripts = await collectScripts(g.scripts, base, origin, yieldSoon);
  const stylesheets = await collectStylesheets(g.sheets, base, origin, yieldSoon);
  const preloads = await collectPreloads(g.links, base, origin, yieldSoon);
  const iframes = await collectIframes(g.iframes, base, origin, yieldSoon);
  const importMap = collectImportMap(g.scripts, base, origin, warn);
  const hosts = tallyHosts(scripts, stylesheets, preloads, iframes, importMap);

  const urls = [
    ...scripts.map((s) => s.src),
    ...stylesheets.map((s) => s.href),
    ...preloads.map((p) => p.href),
    ...importMap.map((e) => e.url),
  ].filter((u): u is string => u !== null);
  await yieldSoon();
  const meta = metaMap(g.metas);
  // One pass of the rule set's prefilter over the page, for its rules and the project's own.
  const htmlSet = rules.text.html;
  const htmlLiterals = htmlSet.index.find(html);
  const htmlHas = (literal: string) => {
    const id = htmlSet.literalId(literal);
    return id === undefined || htmlLiterals.has(id);
  };
  await yieldSoon();
  const own = await detectLibraries(
    {
      urls,
      generators: meta.get("generator") ?? [],
      selected: g.selected,
      html,
      htmlHas,
    },
    undefined,
    yieldSoon,
  );
  const signals: PageSignals = {
    url: finalUrl,
    html,
    scriptSrc: scripts.map((s) => s.src).filter((u): u is string => u !== null),
    // Every inline script's text, data blocks included (as Wappalyzer reads `scripts`).
    scripts: g.scripts.filter((el) => !el.attribs.src).map(rawText).filter(Boolean),
    css: g.styles.map(rawText),
    meta,
    headers: headerMap(response.headers),
    cookies: cookieMap(response.setCookies ?? []),
    htmlLiterals,
  };
  await yieldSoon();
  const techs = await detectTechnologies(rules, signals, yieldSoon);
  const libraries = mergeLibraries(rules, techs, own);

  const external = scripts.filter((s) => !s.inline);
  const thirdPartyScripts = external.filter((s) => s.thirdParty);
  return {
    scripts,
    stylesheets,
    preloads,
    iframes,
    importMap,
    hosts,
    libraries,
    summary: {
      scripts: scripts.length,
      externalScripts: external.length,
      inlineScripts: scripts.length - external.length,
      moduleScripts: scripts.filter((s) => s.module).length,
      inlineScriptBytes: sum(scripts.map((s) => s.size ?? 0)),
      thirdPartyScripts: thirdPartyScripts.length,
      thirdPartyScriptsWithoutSri: thirdPartyScripts.filter((s) => !s.integrity).length,
      stylesheets: stylesheets.length,
      inlineStyles: stylesheets.filter((s) => s.inline).length,
      inlineStyleBytes: sum(stylesheets.map((s) => s.size ?? 0)),
      preloads: preloads.length,
      iframes: iframes.length,
      importMapEntries: importMap.length,
      hosts: hosts.length,
      thirdPartyHosts: hosts.filter((h) => h.thirdParty).length,
      libraries: libraries.length,
    },
  };
}

function originOf(url: string | null, pageHost: string, known: Map<string, boolean>): Origin {
  if (!url) return { host: null, thirdParty: false };
  const u = new URL(url);
  // data:, blob: and the like load nothing from anywhere.
  if (u.protocol !== "http:" && u.protocol !== "https:") return { host: null, thirdParty: false };
  const host = u.hostname;
  let thirdParty = known.get(host);
  if (thirdParty === undefined) known.set(host, thirdParty = isThirdParty(host, pageHost));
  return { host, thirdParty };
}

/** The `type` essence of a script (`""` when absent), lowercased. */
function typeEssence(el: Element): string {
  return (el.attribs.type ?? "").split(";")[0].trim().toLowerCase();
}

/** Whether a `<script>` runs as JavaScript (data blocks, templates, import maps do not). */
function runsAsScript(el: Element): boolean {
  const essence = typeEssence(el);
  return essence === "" || JS_TYPE.test(essence);
}

/** Elements resolved between two calls of the cooperative yield (a page may hold 150,000). */
const YIELD_EVERY = 256;

async function collectScripts(
  elements: Element[],
  base: string,
  origin: (u: string | null) => Origin,
  yieldSoon: () => Promise<void>,
) {
  const out: Script[] = [];
  for (const [i, el] of elements.entries()) {
    if (i % YIELD_EVERY === 0) await yieldSoon();
    const type = el.attribs.type?.trim() ?? null;
    const essence = typeEssence(el);
    // Data blocks (JSON, templates, import maps) are not run: not script dependencies.
    if (!runsAsScript(el)) continue;
    // A script with a src attribute is external even when the src cannot be resolved.
    const inline = attr(el, "src") === null;
    const src = inline ? null : resolveUrl(attr(el, "src"), base);
    out.push({
      src,
      inline,
      size: inline ? utf8Length(rawText(el)) : null,
      type,
      module: essence === "module",
      async: "async" in el.attribs,
      defer: "defer" in el.attribs,
      nomodule: "nomodule" in el.attribs,
      integrity: attr(el, "integrity"),
      crossorigin: crossorigin(el),
      ...origin(src),
    });
  }
  return out;
}

async function collectStylesheets(
  sheets: Element[],
  base: string,
  origin: (u: string | null) => Origin,
  yieldSoon: () => Promise<void>,
) {
  const out: Stylesheet[] = [];
  for (const [i, el] of sheets.entries()) {
    if (i % YIELD_EVERY === 0) await yieldSoon();
    if (el.name === "style") {
      out.push({
        href: null,
        inline: true,
        size: utf8Length(rawText(el)),
        media: attr(el, "media"),
        integrity: null,
        crossorigin: null,
        host: null,
        thirdParty: false,
      });
      continue;
    }
    if (el.attribs.href === undefined || !relTokens(el).includes("stylesheet")) continue;
    const href = resolveUrl(attr(el, "href"), base);
    if (!href) continue;
    out.push({
      href,
      inline: false,
      size: null,
      media: attr(el, "media"),
      integrity: attr(el, "integrity"),
      crossorigin: crossorigin(el),
      ...origin(href),
    });
  }
  return out;
}

async function collectPreloads(
  links: Element[],
  base: string,
  origin: (u: string | null) => Origin,
  yieldSoon: () => Promise<void>,
) {
  const out: Preload[] = [];
  for (const [i, el] of links.entries()) {
    if (i % YIELD_EVERY === 0) await yieldSoon();
    if (el.attribs.href === undefined) continue;
    const rels = relTokens(el).filter((r) => HINT_RELS.includes(r));
    const href = resolveUrl(attr(el, "href"), base);
    if (rels.length === 0 || !href) continue;
    out.push({
      href,
      rel: rels.join(" "),
      as: attr(el, "as"),
      type: attr(el, "type"),
      crossorigin: crossorigin(el),
      ...origin(href),
    });
  }
  return out;
}

async function collectIframes(
  elements: Element[],
  base: string,
  origin: (u: string | null) => Origin,
  yieldSoon: () => Promise<void>,
) {
  const out: Iframe[] = [];
  for (const [i, el] of elements.entries()) {
    if (i % YIELD_EVERY === 0) await yieldSoon();
    if (el.attribs.src === undefined) continue;
    const src = resolveUrl(attr(el, "src"), base);
    if (!src) continue;
    out.push({
      src,
      title: attr(el, "title"),
      loading: attr(el, "loading"),
      sandbox: el.attribs.sandbox?.trim() ?? null,
      ...origin(src),
    });
  }
  return out;
}

function collectImportMap(
  scripts: Element[],
  base: string,
  origin: (u: string | null) => Origin,
  warn: (message: string) => void,
): ImportMapEntry[] {
  const out: ImportMapEntry[] = [];
  for (const el of scripts) {
    if (el.attribs.type?.trim().toLowerCase() !== "importmap") continue;
    let map: unknown;
    try {
      map = JSON.parse(rawText(el));
    } catch {
      warn("Skipped an import map that is not valid JSON");
      continue;
    }
    for (const e of importMapEntries(map, base, warn)) {
      out.push({ specifier: e.specifier, url: e.url, scope: e.scope, ...origin(e.url) });
    }
  }
  return out;
}

/** One row per host, sorted by host name. */
function tallyHosts(
  scripts: Script[],
  stylesheets: Stylesheet[],
  preloads: Preload[],
  iframes: Iframe[],
  importMap: ImportMapEntry[],
): HostEntry[] {
  const rows = new Map<string, HostEntry>();
  const count = (items: Origin[], kind: keyof HostEntry["counts"]) => {
    for (const { host, thirdParty } of items) {
      if (!host) continue;
      const row = rows.get(host) ?? {
        host,
        thirdParty,
        total: 0,
        counts: { scripts: 0, stylesheets: 0, preloads: 0, iframes: 0, importMap: 0 },
      };
      row.counts[kind]++;
      row.total++;
      rows.set(host, row);
    }
  };
  count(scripts, "scripts");
  count(stylesheets, "stylesheets");
  count(preloads, "preloads");
  count(iframes, "iframes");
  count(importMap, "importMap");
  return [...rows.values()].sort((a, b) => (a.host < b.host ? -1 : a.host > b.host ? 1 : 0));
}

/** The `rel` attribute's tokens, lowercased. */
function relTokens(el: Element): string[] {
  return (el.attribs.rel ?? "").toLowerCase().split(/\s+/).filter(Boolean);
}

/** `crossorigin` as written; a bare attribute means `anonymous`, so it reads as "". */
function crossorigin(el: Element): string | null {
  return "crossorigin" in el.attribs ? el.attribs.crossorigin.trim() : null;
}

/** Meta `name` (or `property`), lowercased → contents, as the rule set reads them. */
function metaMap(metas: Element[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const el of metas) {
    const key = (el.attribs.name || el.attribs.property)?.trim().toLowerCase();
    const content = el.attribs.content;
    if (!key || content === undefined) continue;
    append(out, key, content);
  }
  return out;
}

/** Adds `value` to `key`'s list in place (a copy per value is quadratic in repeated keys). */
function append(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** Response headers, lowercased names → values (Set-Cookie goes to the cookies). */
function headerMap(headers: Headers | undefined): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const [name, value] of headers ?? []) {
    if (name !== "set-cookie") append(out, name, value);
  }
  return out;
}

/**
 * Cookie names (lowercased) → values from `Set-Cookie` lines. Google Analytics 4's
 * `_ga_<ID>` becomes `_ga_*`, the name the rule set knows it by (as Wappalyzer's driver does).
 */
function cookieMap(lines: readonly string[]): Map<string, string[]> {
  const out = new Map<string, string[]>();
  for (const line of lines) {
    const pair = line.split(";", 1)[0];
    const at = pair.indexOf("=");
    if (at <= 0) continue;
    let name = pair.slice(0, at).trim().toLowerCase();
    if (/^_ga_[a-z0-9]+$/.test(name)) name = "_ga_*";
    append(out, name, pair.slice(at + 1).trim());
  }
  return out;
}

/** The unparsed text of a `<script>` or `<style>` element. */
function rawText(el: Element): string {
  return el.children.filter(isText).map((c) => c.data).join("");
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
