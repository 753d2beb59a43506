/**
 * A page's clean title: the `<title>` without the site's name when one side of a separator
 * (" | ", " - ", " – ", " — ", " · ", " :: ", " » ", " / ") repeats it, as in
 * "Story - BBC News" or "CIO | Story"; the site's name is read from `og:site_name`,
 * `application-name` or the host name (its labels, spaces and case ignored). An absent or
 * empty `<title>` falls back to `og:title`, `twitter:title`, then the first `<h1>`.
 */
import type { Document, Element } from "domhandler";
import { descendants, innerText, isElement } from "./dom.ts";

/** The separators a title and a site name are joined with. */
const SEPARATOR = /\s+(?:\||-|–|—|·|::|»|\/|\\|•)\s+/;

/** Lowercase letters and digits only: how names are compared. */
function squash(s: string): string {
  // ASCII is its own NFKD and its letters and digits are [a-z0-9] once lowered: the common case
  // skips the Unicode tables (their first use costs a fresh instance a few ms).
  if (!NON_ASCII.test(s)) return s.toLowerCase().replace(/[^a-z0-9]+/g, "");
  return s.toLowerCase().normalize("NFKD").replace(/[^\p{L}\p{N}]+/gu, "");
}
const NON_ASCII = /[\u0080-\uffff]/;

/** The elements a title is read from (the rest of the page is not listed). */
const READ_HERE = new Set(["title", "meta", "link", "h1"]);

/** The clean title of a page (see module doc); null when the page names none. */
export function cleanTitle(doc: Document, url?: string): string | null {
  const els = descendants(doc, READ_HERE);
  const meta = (key: string) => {
    for (const el of els) {
      if (el.name !== "meta") continue;
      const k = (el.attribs.property ?? el.attribs.name ?? "").toLowerCase();
      const v = el.attribs.content?.trim();
      if (k === key && v) return v.replace(/\s+/g, " ");
    }
    return null;
  };
  const titleEl = els.find((el) => el.name === "title" && !inSvg(el));
  const raw = titleEl ? innerText(titleEl).replace(/\s+/g, " ") : "";
  if (raw) {
    const sites = [meta("og:site_name"), meta("application-name")].filter((s): s is string =>
      s !== null
    );
    return stripSiteName(raw, sites, url ?? canonicalUrl(els));
  }
  const h1 = els.find((el) => el.name === "h1" && innerText(el) !== "");
  return meta("og:title") ?? meta("twitter:title") ?? (h1 ? innerText(h1) : null);
}

/**
 * `title` without a leading or trailing part that names the site (one of `sites`, or the host
 * of `url`). Only a part on either end goes, and never the whole title.
 */
export function stripSiteName(title: string, sites: string[], url?: string | null): string {
  const parts = title.split(SEPARATOR);
  if (parts.length < 2) return title;
  const names = sites.map(squash).filter((s) => s.length > 1);
  const labels = hostLabels(url);
  const isSite = (part: string) => {
    const p = squash(part);
    if (p.length < 2) return false;
    if (names.some((n) => n === p || (n.length >= 3 && (p.startsWith(n) || n.startsWith(p))))) {
      return true;
    }
    return labels.some((l) => l === p || (l.length >= 3 && p.startsWith(l) && p.length <= 24));
  };
  // The separator itself is kept between the remaining parts.
  const seps = title.match(new RegExp(SEPARATOR.source, "g")) ?? [];
  let first = 0;
  let last = parts.length - 1;
  if (isSite(parts[last])) last--;
  else if (isSite(parts[first])) first++;
  if (first === 0 && last === parts.length - 1) return title;
  let out = parts[first];
  for (let i = first + 1; i <= last; i++) out += seps[i - 1] + parts[i];
  return out.trim() || title;
}

/** The labels of a URL's host that can name a site ("www" and the public suffix left out). */
function hostLabels(url: string | null | undefined): string[] {
  if (!url) return [];
  try {
    const labels = new URL(url).hostname.toLowerCase().split(".");
    return labels.slice(0, -1).filter((l) => l !== "www" && l.length > 2 && !SUFFIXES.has(l))
      .map(squash);
  } catch {
    return [];
  }
}
/** Second-level labels of public suffixes (co.uk, com.au...). */
const SUFFIXES = new Set(["com", "co", "org", "net", "gov", "ac", "edu"]);

function canonicalUrl(els: Element[]): string | null {
  for (const el of els) {
    if (el.name === "link" && /(^|\s)canonical(\s|$)/i.test(el.attribs.rel ?? "")) {
      return el.attribs.href ?? null;
    }
    if (el.name === "meta" && (el.attribs.property ?? "").toLowerCase() === "og:url") {
      return el.attribs.content ?? null;
    }
  }
  return null;
}

function inSvg(el: Element): boolean {
  for (let p = el.parent; p; p = p.parent) if (isElement(p) && p.name === "svg") return true;
  return false;
}
