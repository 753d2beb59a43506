/**
 * `extractMetadata(html, finalUrl)`: the pure extractor behind `/metadata` (no fetching, so
 * the benchmark and tests call it directly). One parse, within the shared parse limits (a page
 * nested too deep or too large is 502 PARSE_ERROR, and other requests are served between its
 * slices), one walk (signals.ts), then each normalised field takes the first usable source of
 * its fallback list (fields.ts).
 */
import { decodeHTML } from "entities";
import { ApiError } from "../../shared/contract/errors.ts";
import type { YieldSoon } from "../../shared/contract/cooperative.ts";
import {
  collapse,
  cooperative,
  DEFAULT_PARSE_LIMITS,
  parsePage,
  resolveUrl,
} from "../../shared/net/html.ts";
import { cleanPublisher } from "./publisher.ts";
import {
  IMAGE_SOURCES,
  type ImageCandidate,
  KEYWORD_SOURCES,
  LANG_SOURCES,
  type Page,
  type Source,
  TEXT_FIELDS,
  URL_FIELDS,
} from "./fields.ts";
import { cleanAuthor } from "./authors.ts";
import { ChronoNeeded, loadChrono, toIsoDate } from "./dates.ts";
import { mainNode, parseJsonLd } from "./jsonld.ts";
import { alternates, bestFavicon, feeds, icons, oembed } from "./links.ts";
import type { ImageValue, PageMetadata } from "./schema.ts";
import { collectSignals, skippedWarnings } from "./signals.ts";
import { ogImages, openGraphGroup, twitterGroup } from "./tag_groups.ts";

/**
 * The first source whose value `normalise` accepts (returns non-null). Other requests run
 * between sources once a slice has passed: a body fallback walks the whole tree, and a large
 * page without metadata runs them all. A source whose dates need chrono before it is loaded is
 * read again once it is (reads and normalisers are pure).
 */
async function first<T, R>(
  sources: Source<T>[],
  page: Page,
  normalise: (v: T) => R | null,
  yieldSoon: YieldSoon,
): Promise<R | null> {
  for (const source of sources) {
    if (yieldSoon.due()) await yieldSoon();
    for (;;) {
      try {
        let raw = source.read(page);
        if (raw instanceof Promise) raw = await raw;
        if (raw === null || raw === undefined) break;
        const value = normalise(raw);
        if (value !== null) return value;
        break;
      } catch (err) {
        if (!(err instanceof ChronoNeeded)) throw err;
        await loadChrono();
      }
    }
  }
  return null;
}

function cleanText(value: string): string | null {
  return collapse(value) || null;
}

/** Entities a CMS encoded twice ("Nigeria&amp;rsquo;s" reaches us as "Nigeria&rsquo;s"). */
const LEFT_ENTITY = /&(?:#\d{2,6}|#x[\da-f]{2,6}|[a-z]{2,8});/i;
/** A wire story's dateline, "BALTIMORE — " (metascraper's rule, so "NEW YORK (AP) — " stays). */
const DATELINE = /^[A-Z\s]+\s+[-—–]\s+/;

/** A description: collapsed, twice-encoded entities decoded, a leading dateline dropped. */
export function cleanDescription(value: string): string | null {
  let v = collapse(value);
  // Collapsed again once decoded: a twice-encoded `&nbsp;` is white space too.
  if (LEFT_ENTITY.test(v)) v = collapse(decodeHTML(v));
  return v.replace(DATELINE, "") || null;
}

/** A well-formed language tag, `_` written as `-`; the first of a comma list. */
export function cleanLang(value: string): string | null {
  const tag = value.split(",")[0].trim().replace(/_/g, "-");
  return /^[a-z]{1,8}(?:-[a-z0-9]{1,8})*$/i.test(tag) ? tag : null;
}

/** A positive integer size ("1200", 1200, "1200px", {value: 1200}); null otherwise. */
export function cleanSize(value: unknown): number | null {
  if (typeof value === "object" && value !== null && "value" in value) {
    return cleanSize((value as { value: unknown }).value);
  }
  const n = typeof value === "number"
    ? value
    : typeof value === "string"
    ? parseInt(value, 10)
    : NaN;
  return Number.isFinite(n) && n > 0 ? Math.round(n) : null;
}

function cleanKeywords(list: string[]): string[] | null {
  const out = [...new Set(list.map(collapse).filter((k) => k !== ""))];
  return out.length > 0 ? out : null;
}

/** A date value as the result carries it: the ISO 8601 UTC instant and what the page wrote. */
function datedValue(raw: string): { iso: string; raw: string } | null {
  const iso = toIsoDate(raw);
  return iso ? { iso, raw: collapse(raw) } : null;
}

/**
 * Everything a link preview needs from an HTML page fetched from `finalUrl`. The parse and the
 * reading share `budgetMs` (checked at every cooperative yield): past it, 502 PARSE_ERROR
 * naming the bound.
 */
export async function extractMetadata(
  html: string,
  finalUrl: string,
  budgetMs = DEFAULT_PARSE_LIMITS.maxMillis,
): Promise<PageMetadata> {
  const started = performance.now();
  const doc = await parsePage(html, "PARSE_ERROR", { maxMillis: budgetMs });
  const yieldSoon = cooperative(25, {
    endsAt: started + budgetMs,
    over: () => new ApiError("PARSE_ERROR", `Page took longer than ${budgetMs} ms to read`),
  });
  const s = await collectSignals(doc, finalUrl, yieldSoon);
  const ld = await parseJsonLd(s.jsonLdTexts, s.base, yieldSoon);
  const page: Page = { doc, s, ld, main: mainNode(ld), og: ogImages(s.ordered), yieldSoon };
  const pick = <T, R>(sources: Source<T>[], normalise: (v: T) => R | null) =>
    first(sources, page, normalise, yieldSoon);
  const published = await pick(TEXT_FIELDS.publishedTime, datedValue);
  const modified = await pick(TEXT_FIELDS.modifiedTime, datedValue);
  const text = (sources: Source<string>[]) => pick(sources, cleanText);
  const url = (sources: Source<string>[]) => pick(sources, (v) => resolveUrl(v, s.base));
  const image = (c: ImageCandidate): ImageValue | null => {
    const abs = resolveUrl(c.url, s.base);
    if (!abs) return null;
    const alt = typeof c.alt === "string" ? cleanText(c.alt) : null;
    return { url: abs, width: cleanSize(c.width), height: cleanSize(c.height), alt };
  };
  const iconList = icons(s.links, s.base);
  return {
    title: await text(TEXT_FIELDS.title),
    description: await pick(TEXT_FIELDS.description, cleanDescription),
    canonical: await url(URL_FIELDS.canonical),
    lang: await pick(LANG_SOURCES, cleanLang),
    siteName: await pick(TEXT_FIELDS.siteName, cleanPublisher),
    type: await text(TEXT_FIELDS.type),
    author: await pick(TEXT_FIELDS.author, cleanAuthor),
    publishedTime: published?.iso ?? null,
    modifiedTime: modified?.iso ?? null,
    date: modified?.iso ?? published?.iso ?? null,
    rawDates: { published: published?.raw ?? null, modified: modified?.raw ?? null },
    keywords: await pick(KEYWORD_SOURCES, cleanKeywords) ?? [],
    themeColor: await text(TEXT_FIELDS.themeColor),
    image: await pick(IMAGE_SOURCES, image),
    logo: await url(URL_FIELDS.logo),
    icons: iconList,
    favicon: bestFavicon(iconList, finalUrl),
    openGraph: openGraphGroup(s.ordered, s.base),
    twitter: twitterGroup(s.ordered, s.base),
    jsonLd: ld.blocks,
    feeds: feeds(s.links, s.base),
    oembed: oembed(s.links, s.base),
    alternates: alternates(s.links, s.base),
    warnings: [...ld.warnings, ...skippedWarnings(s)],
  };
}

/** A result with nothing found (the base of every non-HTML result). */
export function emptyMetadata(finalUrl: string): PageMetadata {
  return {
    title: null,
    description: null,
    canonical: null,
    lang: null,
    siteName: null,
    type: null,
    author: null,
    publishedTime: null,
    modifiedTime: null,
    date: null,
    rawDates: { published: null, modified: null },
    keywords: [],
    themeColor: null,
    image: null,
    logo: null,
    icons: [],
    favicon: new URL("/favicon.ico", finalUrl).href,
    openGraph: {},
    twitter: {},
    jsonLd: [],
    feeds: [],
    oembed: null,
    alternates: [],
    warnings: [],
  };
}
