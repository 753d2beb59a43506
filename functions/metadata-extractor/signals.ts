/**
 * One walk over the parsed document that collects every signal the metadata fields read:
 * `<meta>` by name/property, `<link>` tags, `itemprop` values, JSON-LD script texts, the
 * `<html lang>`, `<base href>`, the first `<title>` and `<h1>`.
 * The field table (fields.ts) then only looks values up; nothing walks the tree twice.
 */
import {
  type AnyNode,
  type Document,
  type Element,
  resolveUrl,
  text,
} from "../../shared/net/html.ts";
import { isTag } from "domhandler";
import { cooperative, type YieldSoon } from "../../shared/contract/cooperative.ts";

/** One `<link>` tag with an href. */
export interface LinkTag {
  /** The rel tokens, lowercased. */
  rel: string[];
  /** The href as written (trimmed); resolve against `PageSignals.base`. */
  href: string;
  type: string | null;
  sizes: string | null;
  hreflang: string | null;
  title: string | null;
}

/** One `<meta name="theme-color">`, with its media query. */
export interface ThemeColorTag {
  content: string;
  media: string | null;
}

/** Everything the field table reads, gathered in one pass. */
export interface PageSignals {
  /** The URL the page was fetched from (after redirects). */
  finalUrl: string;
  /** The document base: `<base href>` resolved against `finalUrl`, else `finalUrl`. */
  base: string;
  htmlLang: string | null;
  /** Text of the first `<title>` outside SVG. */
  title: string | null;
  /** Text of the first non-empty `<h1>`. */
  h1: string | null;
  /** `<meta content>` by lowercased `property` and `name`, every value in document order. */
  meta: Map<string, string[]>;
  /** Open Graph family and Twitter tags as `[key, content]` in document order (grouping needs it). */
  ordered: [string, string][];
  /** `<meta http-equiv>` by lowercased header name. */
  httpEquiv: Map<string, string>;
  /** `itemprop` values (content, src/href, datetime or text) by property name. */
  itemprop: Map<string, string[]>;
  themeColors: ThemeColorTag[];
  links: LinkTag[];
  /** Raw texts of `<script type="application/ld+json">`. */
  jsonLdTexts: string[];
  /** How many of each were left out past MAX_TAGS. */
  skipped: { links: number; ordered: number; meta: number; jsonLd: number };
}

/** Meta key prefixes kept in document order: Open Graph (with its object types) and Twitter. */
export const OPEN_GRAPH_PREFIXES = ["og:", "article:", "book:", "profile:", "music:", "video:"];

/** Any prefix kept in order (one test, not one per prefix). */
const ORDERED_KEY = new RegExp(`^(?:${[...OPEN_GRAPH_PREFIXES, "twitter:"].join("|")})`);

/** Whether `key` is of the Open Graph family or Twitter's. */
export function isOrderedKey(key: string): boolean {
  return ORDERED_KEY.test(key);
}

/** Attribute value, trimmed; null when absent or blank. */
function attrOf(el: Element, name: string): string | null {
  const value = el.attribs[name];
  if (value === undefined) return null;
  const trimmed = value.trim();
  return trimmed === "" ? null : trimmed;
}

function push(map: Map<string, string[]>, key: string, value: string): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** The text of a raw-text element (script), untouched. */
function rawText(el: Element): string {
  let out = "";
  for (const child of el.children) {
    if (child.type === "text") out += (child as { data: string }).data;
  }
  return out;
}

/** Media elements whose `itemprop` value is their `src`. */
const SRC_VALUE = new Set(["img", "audio", "video", "source", "embed", "iframe", "track"]);

/** The value of an element's `itemprop`, as microdata defines it. */
function itempropValue(el: Element): string | null {
  if (el.name === "meta") return attrOf(el, "content");
  const content = attrOf(el, "content");
  if (content) return content;
  if (SRC_VALUE.has(el.name)) return attrOf(el, "src");
  if (el.name === "a" || el.name === "area" || el.name === "link") return attrOf(el, "href");
  if (el.name === "time") return attrOf(el, "datetime") ?? (text(el) || null);
  return text(el) || null;
}

/**
 * Most `<link>` tags, Open Graph and Twitter tags, values of one meta key and JSON-LD blocks
 * read from a page: real pages stay far below (a site in 100 languages has 100 alternates),
 * and 150,000 icons made every later step, and the answer, 150,000 long. The rest is skipped
 * with a line in `warnings`.
 */
export const MAX_TAGS = 1_000;

/** Elements walked between two checks of the cooperative yield. */
const CHECK_EVERY = 256;

/**
 * Walks the document once and returns its signals. The walk pauses for other requests when
 * `yieldSoon` says its slice has passed (a page may hold 300,000 elements).
 */
export async function collectSignals(
  doc: Document,
  finalUrl: string,
  yieldSoon: YieldSoon = cooperative(),
): Promise<PageSignals> {
  const s: PageSignals = {
    finalUrl,
    base: finalUrl,
    htmlLang: null,
    title: null,
    h1: null,
    meta: new Map(),
    ordered: [],
    httpEquiv: new Map(),
    itemprop: new Map(),
    themeColors: [],
    links: [],
    jsonLdTexts: [],
    skipped: { links: 0, ordered: 0, meta: 0, jsonLd: 0 },
  };
  let baseSeen = false;
  let htmlSeen = false;
  // Depth-first in document order, without recursion so that it can pause anywhere.
  const stack: AnyNode[] = [];
  const svgStack: boolean[] = []; // whether each node of `stack` is inside an <svg>
  const pushChildren = (nodes: AnyNode[], inSvg: boolean) => {
    for (let i = nodes.length - 1; i >= 0; i--) {
      if (!isTag(nodes[i])) continue; // text and comments hold no signal here
      stack.push(nodes[i]);
      svgStack.push(inSvg);
    }
  };
  pushChildren(doc.children, false);
  let walked = 0;
  while (stack.length > 0) {
    if (++walked % CHECK_EVERY === 0 && yieldSoon.due()) await yieldSoon();
    const el = stack.pop() as Element;
    const inSvg = svgStack.pop()!;
    const name = el.name;
    const itemprop = el.attribs.itemprop;
    if (itemprop !== undefined && name !== "meta" && name !== "link") {
      const value = itempropValue(el);
      if (value) { for (const p of itemprop.trim().split(/\s+/)) push(s.itemprop, p, value); }
    }
    switch (name) {
      case "meta":
        readMeta(el, s);
        continue;
      case "link":
        readLink(el, s);
        continue;
      case "script": {
        const type = el.attribs.type?.split(";")[0].trim().toLowerCase();
        if (type !== "application/ld+json") continue; // other scripts hold no metadata
        if (s.jsonLdTexts.length < MAX_TAGS) s.jsonLdTexts.push(rawText(el));
        else s.skipped.jsonLd++;
        continue;
      }
      case "style":
      case "template": // inert content
        continue;
      case "html":
        if (!htmlSeen) {
          htmlSeen = true;
          s.htmlLang = attrOf(el, "lang") ?? attrOf(el, "xml:lang");
        }
        break;
      case "base":
        if (!baseSeen && attrOf(el, "href")) {
          baseSeen = true; // only the first <base href> counts, as in browsers
          s.base = resolveUrl(attrOf(el, "href"), finalUrl) ?? finalUrl;
        }
        continue;
      case "title":
        if (!inSvg && s.title === null) s.title = text(el) || null;
        continue;
      case "h1":
        if (s.h1 === null) s.h1 = text(el) || null;
        break;
    }
    if (el.children.length > 0) pushChildren(el.children, inSvg || name === "svg");
  }
  return s;
}

/** The warnings of what `collectSignals` skipped past MAX_TAGS. */
export function skippedWarnings(s: PageSignals): string[] {
  const lines: [number, string][] = [
    [s.skipped.links, "<link> tags"],
    [s.skipped.ordered, "Open Graph and Twitter tags"],
    [s.skipped.meta, "values of repeated <meta> names"],
    [s.skipped.jsonLd, "JSON-LD blocks"],
  ];
  return lines.filter(([n]) => n > 0).map(([n, what]) =>
    `${n} ${what} past the first ${MAX_TAGS} skipped`
  );
}

function readMeta(el: Element, s: PageSignals): void {
  const content = el.attribs.content;
  if (content === undefined) return;
  const value = content.trim();
  const itemprop = attrOf(el, "itemprop");
  if (itemprop && value) { for (const p of itemprop.split(/\s+/)) push(s.itemprop, p, value); }
  const equiv = attrOf(el, "http-equiv");
  if (equiv && value) s.httpEquiv.set(equiv.toLowerCase(), value);
  // Sites put Open Graph in `name` and Twitter in `property` as often as the other way round.
  const property = attrOf(el, "property")?.toLowerCase();
  const name = attrOf(el, "name")?.toLowerCase();
  if (!value) return;
  if (property) add(s, property, value);
  if (name && name !== property) add(s, name, value);
  if (name === "theme-color") s.themeColors.push({ content: value, media: attrOf(el, "media") });
}

function add(s: PageSignals, key: string, value: string): void {
  const list = s.meta.get(key);
  if (!list) s.meta.set(key, [value]);
  else if (list.length < MAX_TAGS) list.push(value);
  else s.skipped.meta++;
  if (!isOrderedKey(key)) return;
  if (s.ordered.length < MAX_TAGS) s.ordered.push([key, value]);
  else s.skipped.ordered++;
}

function readLink(el: Element, s: PageSignals): void {
  const href = attrOf(el, "href");
  if (!href) return;
  const itemprop = attrOf(el, "itemprop");
  if (itemprop) { for (const p of itemprop.split(/\s+/)) push(s.itemprop, p, href); }
  const rel = attrOf(el, "rel");
  if (!rel) return;
  if (s.links.length >= MAX_TAGS) {
    s.skipped.links++;
    return;
  }
  s.links.push({
    rel: /\s/.test(rel) ? rel.toLowerCase().split(/\s+/) : [rel.toLowerCase()],
    href,
    type: attrOf(el, "type")?.toLowerCase() ?? null,
    sizes: attrOf(el, "sizes"),
    hreflang: attrOf(el, "hreflang"),
    title: attrOf(el, "title"),
  });
}
