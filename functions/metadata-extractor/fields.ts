/**
 * The fallback table: for each normalised field, the sources tried in order. The first source
 * whose value survives the field's normalisation (trimmed, white space collapsed, non-empty,
 * a resolvable URL, a well-formed language tag...) wins. To change an order or add a source,
 * edit a list here; the engine (extract.ts) and the README table follow from it.
 */
import type { Document } from "../../shared/net/html.ts";
import type { YieldSoon } from "../../shared/contract/cooperative.ts";
import { nameFromProfileUrl } from "./authors.ts";
import {
  AUTHOR_RULES,
  type BodyRule,
  DATE_RULES,
  firstParagraph,
  fromRules,
  leadImage,
  PUBLISHER_RULES,
} from "./body_sources.ts";
import { toIsoDate } from "./dates.ts";
import type { JsonLd, LdNode } from "./jsonld.ts";
import { ldImage, ldNames, ldText, ldUrl, ldValue, nodesOfType } from "./jsonld.ts";
import type { PageSignals } from "./signals.ts";
import { looksLikeUrl, type OgImage } from "./tag_groups.ts";

/**
 * What a source reads from: the page's signals, its JSON-LD, the Open Graph images, and the
 * parsed document (for the body fallbacks, read only when every declared source is empty).
 */
export interface Page {
  doc: Document;
  s: PageSignals;
  ld: JsonLd;
  /** The JSON-LD node the page is about (first with a headline, else first non-supporting). */
  main: LdNode | undefined;
  og: OgImage[];
  /** The request's cooperative yield: body fallbacks scan the whole tree and pause on it. */
  yieldSoon: YieldSoon;
}

/** One place a field may come from. */
export interface Source<T> {
  /** How the README names the source. */
  from: string;
  /** The value; a body fallback, which may pause for other requests, gives a promise. */
  read(page: Page): T | null | undefined | Promise<T | null | undefined>;
}

/** An image before normalisation: sizes as written. */
export interface ImageCandidate {
  url: string;
  width?: unknown;
  height?: unknown;
  alt?: unknown;
}

/** The first value of a meta tag (by `property` or `name`). */
function meta(key: string): Source<string> {
  return {
    from: key.includes(":") ? key : `<meta name=${key}>`,
    read: (p) => p.s.meta.get(key)?.[0],
  };
}

/** The first `itemprop` value. */
function itemprop(name: string): Source<string> {
  return { from: `itemprop=${name}`, read: (p) => p.s.itemprop.get(name)?.[0] };
}

/** A JSON-LD text value of the first node that has `key`. */
function ldField(key: string): Source<string> {
  return { from: `JSON-LD ${key}`, read: (p) => ldText(p.ld, ldValue(p.ld, key)) };
}

/** The href of the first `<link rel=...>`. */
function linkHref(p: Page, rel: string): string | undefined {
  return p.s.links.find((l) => l.rel.includes(rel))?.href;
}

/** The first `<link rel=...>` href. */
function link(rel: string): Source<string> {
  return { from: `<link rel=${rel}>`, read: (p) => linkHref(p, rel) };
}

/** Body markup rules, tried as one source after the declared ones. */
function body(from: string, rules: BodyRule[], valid?: (v: string) => boolean): Source<string> {
  return { from, read: (p) => fromRules(p.doc, rules, valid, p.yieldSoon) };
}

/**
 * The site's name as the title's last part ("Story - Site", "Story | Site", "Story- Site"), as
 * metascraper reads it: after the last separator that a space follows (so "Spider-Man" is one
 * word). One scan from the end; no regular expression on the page's text.
 */
export function titleSuffix(title: string | null): string | null {
  if (!title) return null;
  for (let i = title.length - 2; i > 0; i--) {
    if ("-|–—".includes(title[i]) && /\s/.test(title[i + 1])) {
      return title.slice(i + 1).trim() || null;
    }
  }
  return null;
}

const isDate = (v: string) => toIsoDate(v) !== null;

/** Normalised text fields. */
export const TEXT_FIELDS = {
  title: [
    meta("og:title"),
    meta("twitter:title"),
    ldField("headline"),
    { from: "<title>", read: (p) => p.s.title },
    { from: "first <h1>", read: (p) => p.s.h1 },
  ],
  description: [
    meta("og:description"),
    meta("twitter:description"),
    meta("description"),
    ldField("description"),
    itemprop("description"),
    { from: "the first real paragraph", read: (p) => firstParagraph(p.doc, p.yieldSoon) },
  ],
  siteName: [
    // The publisher's declared name first: og:site_name is often the host ("NPR.org") or a
    // section's brand ("BBC News") where JSON-LD names the organisation ("NPR", "BBC").
    { from: "JSON-LD publisher.name", read: (p) => ldText(p.ld, ldValue(p.ld, "publisher")) },
    meta("og:site_name"),
    {
      from: "JSON-LD WebSite name",
      read: (p) => ldText(p.ld, ldValue(p.ld, "name", nodesOfType(p.ld, ["WebSite"]))),
    },
    meta("application-name"),
    meta("apple-mobile-web-app-title"),
    meta("publisher"),
    meta("twitter:app:name:iphone"),
    meta("twitter:app:name:googleplay"),
    body("the logo's text or alt (#logo, .logo, a brand link)", PUBLISHER_RULES),
    { from: "the title's site suffix", read: (p) => titleSuffix(p.s.title) },
  ],
  author: [
    {
      from: 'JSON-LD author (names joined: "A, B and C")',
      read: (p) => ldNames(p.ld, ldValue(p.ld, "author")),
    },
    meta("author"),
    {
      from: "article:author (a name, not a profile URL)",
      read: (p) => p.s.meta.get("article:author")?.find((v) => !looksLikeUrl(v)),
    },
    body("the byline (itemprop=author, rel=author, author/byline classes)", AUTHOR_RULES),
    {
      from: "twitter:creator (the handle)",
      read: (p) => p.s.meta.get("twitter:creator")?.[0]?.replace(/^@/, ""),
    },
    {
      from: "the name in a profile URL (article:author, JSON-LD author url)",
      read: (p) => {
        const urls = [
          ...(p.s.meta.get("article:author") ?? []),
          ...[ldValue(p.ld, "author")].flat().map((a) =>
            typeof a === "object" && a !== null ? ldUrl(p.ld, (a as LdNode).url) : null
          ),
          ...[ldValue(p.ld, "author")].flat().filter((a): a is string => typeof a === "string"),
        ];
        for (const u of urls) {
          const name = u && /^https?:/i.test(u) ? nameFromProfileUrl(u) : null;
          if (name) return name;
        }
        return null;
      },
    },
  ],
  type: [
    meta("og:type"),
    {
      from: "JSON-LD @type of the main node",
      read: (p) => {
        const t = p.main?.["@type"];
        return typeof t === "string"
          ? t
          : Array.isArray(t)
          ? t.find((x) => typeof x === "string")
          : null;
      },
    },
    // Open Graph: "any non-marked up webpage should be treated as og:type website".
    { from: "`website` (Open Graph's default)", read: () => "website" },
  ],
  publishedTime: [
    meta("article:published_time"),
    ldField("datePublished"),
    ldField("dateCreated"),
    itemprop("datePublished"),
    meta("date"),
    meta("dc.date"),
    meta("dc.date.issued"),
    meta("sailthru.date"),
    body("a date in the body (itemprop, <time datetime>, date/byline classes)", DATE_RULES, isDate),
  ],
  modifiedTime: [
    meta("article:modified_time"),
    meta("og:updated_time"),
    ldField("dateModified"),
    itemprop("dateModified"),
  ],
  themeColor: [
    {
      from: "<meta name=theme-color> without media",
      read: (p) => p.s.themeColors.find((t) => t.media === null)?.content,
    },
    { from: "first <meta name=theme-color>", read: (p) => p.s.themeColors[0]?.content },
    meta("msapplication-tilecolor"),
  ],
} satisfies Record<string, Source<string>[]>;

/** Normalised URL fields (resolved against the document base). */
export const URL_FIELDS = {
  canonical: [
    link("canonical"),
    meta("og:url"),
    {
      from: "JSON-LD mainEntityOfPage",
      read: (p) => ldUrl(p.ld, ldValue(p.ld, "mainEntityOfPage")),
    },
    { from: "JSON-LD url of the main node", read: (p) => ldUrl(p.ld, p.main?.url) },
  ],
  logo: [
    { from: "JSON-LD publisher.logo", read: (p) => logoOf(p, ldValue(p.ld, "publisher")) },
    { from: "JSON-LD logo (any node)", read: (p) => ldUrl(p.ld, ldValue(p.ld, "logo")) },
    meta("og:logo"),
    itemprop("logo"),
  ],
} satisfies Record<string, Source<string>[]>;

function logoOf(p: Page, publisher: unknown): string | null {
  if (typeof publisher !== "object" || publisher === null || Array.isArray(publisher)) return null;
  return ldUrl(p.ld, (publisher as LdNode).logo);
}

/** `lang`: a BCP 47 tag (`en_GB` written as `en-GB`). */
export const LANG_SOURCES: Source<string>[] = [
  { from: "<html lang>", read: (p) => p.s.htmlLang },
  {
    from: "<meta http-equiv=content-language>",
    read: (p) => p.s.httpEquiv.get("content-language"),
  },
  meta("og:locale"),
  ldField("inLanguage"),
];

/** `keywords`: comma-separated lists are split; duplicates dropped. */
export const KEYWORD_SOURCES: Source<string[]>[] = [
  { from: "<meta name=keywords>", read: (p) => splitLists(p.s.meta.get("keywords")) },
  { from: "article:tag (all)", read: (p) => p.s.meta.get("article:tag") },
  {
    from: "JSON-LD keywords",
    read: (p) => {
      const value = ldValue(p.ld, "keywords");
      if (typeof value === "string") return splitList(ldText(p.ld, value) ?? "");
      return Array.isArray(value) ? value.map((v) => ldText(p.ld, v) ?? "") : null;
    },
  },
];

function splitList(value: string): string[] {
  return value.split(",");
}

/** The items of comma lists, in order; undefined for none. */
function splitLists(values: string[] | undefined): string[] | undefined {
  if (!values) return undefined;
  const out: string[] = [];
  for (const v of values) for (const item of v.split(",")) out.push(item);
  return out;
}

/** `image`: the URL with the size and alt text declared next to it. */
export const IMAGE_SOURCES: Source<ImageCandidate>[] = [
  {
    from: "og:image (with og:image:width/height/alt)",
    read: (p) => {
      const image = p.og.find((i) => i.url ?? i.secureUrl);
      if (!image) return null;
      return {
        // The HTTPS address the page gives for the same image is the one to show.
        url:
          (image.secureUrl?.startsWith("https:") ? image.secureUrl : image.url ?? image.secureUrl)!,
        width: image.width,
        height: image.height,
        alt: image.alt,
      };
    },
  },
  {
    from: "twitter:image (with twitter:image:alt)",
    read: (p) => {
      const url = p.s.meta.get("twitter:image")?.[0] ?? p.s.meta.get("twitter:image:src")?.[0];
      return url ? { url, alt: p.s.meta.get("twitter:image:alt")?.[0] } : null;
    },
  },
  { from: "JSON-LD image", read: (p) => ldImage(p.ld, ldValue(p.ld, "image")) },
  {
    from: "itemprop=image",
    read: (p) => {
      const url = p.s.itemprop.get("image")?.[0];
      return url ? { url } : null;
    },
  },
  {
    from: "<link rel=image_src>",
    read: (p) => {
      const url = linkHref(p, "image_src");
      return url ? { url } : null;
    },
  },
  {
    from: "the article's lead <img> (not an icon)",
    read: (p) => {
      const image = (url: string | null) => (url ? { url } : null);
      const url = leadImage(p.doc, p.yieldSoon);
      return url instanceof Promise ? url.then(image) : image(url);
    },
  },
];

/** Every fallback order by field name, as the README lists it. */
export const FALLBACK_ORDER: Record<string, string[]> = {
  ...Object.fromEntries(
    Object.entries({ ...TEXT_FIELDS, ...URL_FIELDS }).map(([k, v]) => [k, v.map((s) => s.from)]),
  ),
  lang: LANG_SOURCES.map((s) => s.from),
  keywords: KEYWORD_SOURCES.map((s) => s.from),
  image: IMAGE_SOURCES.map((s) => s.from),
};
