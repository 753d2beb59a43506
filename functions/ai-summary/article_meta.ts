/**
 * What a page says about its article, read as Readability reads it (`_getArticleMetadata`,
 * `_getJSONLD`): JSON-LD first (an Article-like node's author, publisher and date), then the
 * `<meta>` tags (Dublin Core, Open Graph, Twitter, Parse.ly, plain `name`). Run it before the
 * reader, which removes scripts (JSON-LD among them) from the tree.
 */
import type { AnyNode, Document } from "domhandler";
import { descendants, textContent } from "./dom.ts";
import { readerYield } from "./tree.ts";

/** The page's own description of its article; each field null when the page does not say. */
export interface ArticleMeta {
  byline: string | null;
  siteName: string | null;
  lang: string | null;
  publishedTime: string | null;
  excerpt: string | null;
}

// Readability's patterns for the `property` and `name` attributes of a <meta>.
const PROPERTY =
  /\s*(article|dc|dcterm|og|twitter)\s*:\s*(author|creator|description|published_time|title|site_name)\s*/gi;
const NAME =
  /^\s*(?:(dc|dcterm|og|twitter|parsely|weibo:(article|webpage))\s*[-.:]\s*)?(author|creator|pub-date|description|title|site_name)\s*$/i;
const ARTICLE_TYPES =
  /^(Article|AdvertiserContentArticle|NewsArticle|AnalysisNewsArticle|AskPublicNewsArticle|BackgroundNewsArticle|OpinionNewsArticle|ReportageNewsArticle|ReviewNewsArticle|Report|SatiricalArticle|ScholarlyArticle|MedicalScholarlyArticle|SocialMediaPosting|BlogPosting|LiveBlogPosting|DiscussionForumPosting|TechArticle|APIReference|WebPage)$/;
const META_OR_SCRIPT = new Set(["meta", "script", "html"]);
/** JSON-LD scripts over this size are not read (a page's real ones are a few KB). */
const MAX_JSON_LD_CHARS = 256 * 1024;

/**
 * The page's metadata: byline, site name, language, publication time and excerpt (`yieldSoon`
 * awaited every few hundred tags: a page may hold 150,000).
 */
export async function articleMeta(
  doc: Document,
  yieldSoon: () => Promise<void> = readerYield(),
): Promise<ArticleMeta> {
  const values = new Map<string, string>();
  let lang: string | null = null;
  let ld: Record<string, unknown> | null = null;
  let seen = 0;
  for (const el of descendants(doc, META_OR_SCRIPT)) {
    if ((++seen & 255) === 0) await yieldSoon();
    if (el.name === "html") {
      lang ??= clean(el.attribs.lang ?? el.attribs["xml:lang"]);
      continue;
    }
    if (el.name === "script") {
      if (!ld && (el.attribs.type ?? "").trim().toLowerCase() === "application/ld+json") {
        ld = jsonLdArticle(textContent(el));
      }
      continue;
    }
    const content = clean(el.attribs.content);
    if (!content) continue;
    let matched = false;
    const property = el.attribs.property;
    if (property) {
      for (const m of property.matchAll(PROPERTY)) {
        values.set(`${m[1].toLowerCase()}:${m[2].toLowerCase()}`, content);
        matched = true;
      }
    }
    const name = el.attribs.name;
    if (!matched && name && NAME.test(name)) {
      values.set(name.toLowerCase().replace(/\s/g, "").replace(/\./g, ":"), content);
    }
    if (el.attribs["http-equiv"]?.toLowerCase() === "content-language") lang ??= content;
  }
  // A value that is a URL (article:author is often a profile page) is not a name.
  const pick = (...keys: string[]) => {
    for (const k of keys) {
      const v = values.get(k);
      if (v && !/^https?:\/\//i.test(v)) return v;
    }
    return null;
  };
  const ldAuthor = ld ? names(ld.author) : null;
  const ldPublisher = ld ? names(ld.publisher) : null;
  return {
    byline: ldAuthor ??
      pick("dc:creator", "dcterm:creator", "author", "parsely-author", "article:author"),
    siteName: ldPublisher ?? pick("og:site_name"),
    lang,
    publishedTime: (ld && typeof ld.datePublished === "string" ? clean(ld.datePublished) : null) ??
      pick("article:published_time", "parsely-pub-date"),
    excerpt: (ld && typeof ld.description === "string" ? clean(ld.description) : null) ??
      pick(
        "dc:description",
        "dcterm:description",
        "og:description",
        "weibo:article:description",
        "weibo:webpage:description",
        "description",
        "twitter:description",
      ),
  };
}

/** The first Article-like node of a JSON-LD script (a top-level `@graph` searched too). */
function jsonLdArticle(raw: string): Record<string, unknown> | null {
  if (raw.length > MAX_JSON_LD_CHARS) return null;
  let data: unknown;
  try {
    data = JSON.parse(raw.replace(/^\s*<!\[CDATA\[|\]\]>\s*$/g, ""));
  } catch {
    return null;
  }
  const nodes: unknown[] = Array.isArray(data) ? data : [data];
  for (const n of [...nodes]) {
    if (isRecord(n) && Array.isArray(n["@graph"])) nodes.push(...n["@graph"]);
  }
  for (const n of nodes) {
    if (!isRecord(n)) continue;
    const types = Array.isArray(n["@type"]) ? n["@type"] : [n["@type"]];
    if (types.some((t) => typeof t === "string" && ARTICLE_TYPES.test(t))) return n;
  }
  return null;
}

/** A person or organisation (or a list of them) as a name: several joined with "and". */
function names(value: unknown): string | null {
  const list = (Array.isArray(value) ? value : [value]).slice(0, 10)
    .map((v) => typeof v === "string" ? v : isRecord(v) && typeof v.name === "string" ? v.name : "")
    .map((v) => clean(v))
    .filter((v): v is string => v !== null && !/^https?:\/\//.test(v));
  if (list.length === 0) return null;
  return list.length === 1 ? list[0] : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`;
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === "object" && v !== null && !Array.isArray(v);
}

/** Trimmed, white space collapsed, HTML entities left by double encoding kept; null if empty. */
function clean(value: string | undefined | null): string | null {
  const v = value?.replace(/\s+/g, " ").trim();
  return v ? v : null;
}

/** The first paragraph of an article with text: the excerpt when the page gives none. */
export function firstParagraph(article: AnyNode | null): string | null {
  if (!article) return null;
  for (const p of descendants(article, P)) {
    const text = clean(textContent(p));
    if (text) return text;
  }
  return null;
}
const P = new Set(["p"]);
