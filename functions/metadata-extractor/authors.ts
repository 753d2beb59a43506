/**
 * Author names as a reader wants them: "By Jane Doe" is "Jane Doe", a byline's trailing date
 * stamp goes ("Jane Doe, USA TODAY 4:14 p.m. EDT June 6, 2013"), and a profile URL or a
 * hashtag is not a name (the next source is tried; a profile URL's last path segment is the
 * last resort: `/author/jane-doe/` is "Jane Doe").
 */
import { collapse } from "../../shared/net/html.ts";
import { dateStart } from "./dates.ts";

/** Longest author value kept: longer is a paragraph, not a name. */
export const MAX_AUTHOR_LENGTH = 100;

/** A leading "By", "Written by", "Posted by", "Von", "Par", "Por" and an "@" before a handle. */
const BY =
  /^(?:(?:written|posted|story|words|text|report(?:ed)?)\s+)?(?:by|von|par|por|door|di)\s*[:\-]?\s+|^@\s*/i;

/** A comment's "wrote:", a byline's "Published:" / "Updated:" label left at the end. */
const TRAILING_LABEL = /\s*(?:wrote|said|published|updated|posted)\s*:?\s*$/i;
/** A bare domain ("CBSNews.com") names the site, not a person. */
const DOMAIN = /^[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}$/i;

/**
 * A cleaned author name; null when the value is not a name (a URL, a domain, a hashtag, a date,
 * too long, empty), so the next source is tried.
 */
export function cleanAuthor(value: string): string | null {
  let v = collapse(value).replace(BY, "");
  if (v === "" || /^(?:[a-z][a-z0-9+.-]*:\/\/|www\.|\/|#)/i.test(v) || DOMAIN.test(v)) return null;
  const at = dateStart(v);
  if (at === 0) return null;
  if (at !== null) v = v.slice(0, at);
  v = v.replace(/[\s,;|/·•–—-]+$/, "").replace(TRAILING_LABEL, "").trim();
  if (v === "" || v.length > MAX_AUTHOR_LENGTH || isSentence(v)) return null;
  return v;
}

/** Words a list of names may hold in lower case ("Ann and Bob", "Jean de la Fontaine"). */
const NAME_PARTICLES = new Set([
  "and",
  "und",
  "et",
  "y",
  "e",
  "with",
  "de",
  "la",
  "le",
  "van",
  "von",
  "der",
  "den",
  "da",
  "di",
  "del",
  "du",
  "bin",
  "al",
]);

/**
 * Whether a byline's text is a sentence rather than names: four or more words in lower case
 * that are not name particles ("The writer has posted comments on this article").
 */
function isSentence(v: string): boolean {
  let lower = 0;
  for (const word of v.split(" ")) {
    const c = word.charCodeAt(0);
    if (c >= 0x61 && c <= 0x7a && !NAME_PARTICLES.has(word) && ++lower >= 4) return true;
  }
  return false;
}

/** A name from a profile URL's last path segment ("/author/jane-doe/" → "Jane Doe"); else null. */
export function nameFromProfileUrl(value: string): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return null;
  }
  const segment = url.pathname.split("/").filter(Boolean).pop();
  if (!segment || !/[a-z]/i.test(segment) || /\.(?:html?|php|aspx?)$/i.test(segment)) return null;
  const words = decodeURIComponent(segment).split(/[-_.+\s]+/).filter(Boolean);
  if (words.length === 0 || words.length > 5 || words.some((w) => /\d/.test(w))) return null;
  return words.map((w) => w[0].toUpperCase() + w.slice(1)).join(" ");
}
