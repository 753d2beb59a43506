/**
 * What an HTML page depends on: its scripts, stylesheets, resource hints, iframes and import
 * map, tallied per host, with the libraries the rule table recognises.
 */
import { isText } from "domhandler";
import {
  attr,
  type Document,
  documentBase,
  type Element,
  parseHtml,
  resolveUrl,
  select,
} from "../../shared/net/html.ts";
import { isThirdParty } from "../../shared/net/hosts.ts";
import { detectLibraries } from "./detect.ts";
import { importMapEntries } from "./import_map.ts";
import type {
  HostEntry,
  Iframe,
  ImportMapEntry,
  PageResult,
  Preload,
  Script,
  Stylesheet,
} from "./schema.ts";

/** The page analysis without the fetch fields (`url`, `status`...). */
export type PageAnalysis = Omit<
  PageResult,
  "url" | "finalUrl" | "status" | "fetchedAt" | "contentType" | "warnings" | "kind"
>;

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

/**
 * Analyses HTML fetched from `finalUrl`. URLs are resolved against `<base href>` when present.
 * `warn` hears about parts that could not be read (a broken import map).
 */
export function analyzePage(
  html: string,
  finalUrl: string,
  warn: (message: string) => void = () => {},
): PageAnalysis {
  const doc = parseHtml(html);
  // Browsers ignore a <base href> that is not a fetchable URL (javascript:, data:).
  const declaredBase = documentBase(doc, finalUrl);
  const base = /^https?:/i.test(declaredBase) ? declaredBase : finalUrl;
  const pageHost = new URL(finalUrl).hostname;
  const origin = (url: string | null): Origin => originOf(url, pageHost);

  const scripts = collectScripts(doc, base, origin);
  const stylesheets = collectStylesheets(doc, base, origin);
  const preloads = collectPreloads(doc, base, origin);
  const iframes = collectIframes(doc, base, origin);
  const importMap = collectImportMap(doc, base, origin, warn);
  const hosts = tallyHosts(scripts, stylesheets, preloads, iframes, importMap);

  const urls = [
    ...scripts.map((s) => s.src),
    ...stylesheets.map((s) => s.href),
    ...preloads.map((p) => p.href),
    ...importMap.map((e) => e.url),
  ].filter((u): u is string => u !== null);
  const generators = select(doc, 'meta[name="generator" i]')
    .map((m) => attr(m, "content"))
    .filter((c): c is string => c !== null);
  const libraries = detectLibraries({ urls, generators, doc, html });

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

function originOf(url: string | null, pageHost: string): Origin {
  if (!url) return { host: null, thirdParty: false };
  const u = new URL(url);
  // data:, blob: and the like load nothing from anywhere.
  if (u.protocol !== "http:" && u.protocol !== "https:") return { host: null, thirdParty: false };
  return { host: u.hostname, thirdParty: isThirdParty(u.hostname, pageHost) };
}

function collectScripts(doc: Document, base: string, origin: (u: string | null) => Origin) {
  const out: Script[] = [];
  for (const el of select(doc, "script")) {
    const type = el.attribs.type?.trim() ?? null;
    const essence = (type ?? "").split(";")[0].trim().toLowerCase();
    // Data blocks (JSON, templates, import maps) are not run: not script dependencies.
    if (essence !== "" && !JS_TYPE.test(essence)) continue;
    // A script with a src attribute is external even when the src cannot be resolved.
    const inline = attr(el, "src") === null;
    const src = inline ? null : resolveUrl(attr(el, "src"), base);
    out.push({
      src,
      inline,
      size: inline ? byteLength(rawText(el)) : null,
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

function collectStylesheets(doc: Document, base: string, origin: (u: string | null) => Origin) {
  const out: Stylesheet[] = [];
  for (const el of select(doc, "link[rel][href], style")) {
    if (el.name === "style") {
      out.push({
        href: null,
        inline: true,
        size: byteLength(rawText(el)),
        media: attr(el, "media"),
        integrity: null,
        crossorigin: null,
        host: null,
        thirdParty: false,
      });
      continue;
    }
    if (!relTokens(el).includes("stylesheet")) continue;
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

function collectPreloads(doc: Document, base: string, origin: (u: string | null) => Origin) {
  const out: Preload[] = [];
  for (const el of select(doc, "link[rel][href]")) {
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

function collectIframes(doc: Document, base: string, origin: (u: string | null) => Origin) {
  const out: Iframe[] = [];
  for (const el of select(doc, "iframe[src]")) {
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
  doc: Document,
  base: string,
  origin: (u: string | null) => Origin,
  warn: (message: string) => void,
): ImportMapEntry[] {
  const out: ImportMapEntry[] = [];
  for (const el of select(doc, "script")) {
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

/** The unparsed text of a `<script>` or `<style>` element. */
function rawText(el: Element): string {
  return el.children.filter(isText).map((c) => c.data).join("");
}

function byteLength(s: string): number {
  return new TextEncoder().encode(s).length;
}

function sum(values: number[]): number {
  return values.reduce((a, b) => a + b, 0);
}
