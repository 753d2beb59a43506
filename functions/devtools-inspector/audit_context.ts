/**
 * Everything a security check may look at, read once from the response: URLs, headers, cookies,
 * the parsed page with its `<meta>` equivalents, CSP and HSTS. Checks only read from it.
 */
import { attr, type Document, documentBase, resolveUrl, select } from "../../shared/net/html.ts";
import { isThirdParty } from "../../shared/net/hosts.ts";
import { type CspPolicy, parseCsp } from "./csp.ts";
import { type Hsts, HSTS_MIN_MAX_AGE, parseHsts } from "./hsts.ts";
import type { HttpRoute, Preflight } from "./probes.ts";
import type { CookieInfo } from "./schema.ts";
import { runsAsScript } from "./script_kind.ts";

/** What the audit is built from. */
export interface AuditInput {
  /** The URL of the final response (after redirects). */
  finalUrl: string;
  /** Its headers. */
  headers: Headers;
  /** The cookies it sets. */
  cookies: CookieInfo[];
  /** The parsed page, or null when the body is not HTML. */
  document: Document | null;
  /** Where the page's http:// URL led (the fetch itself when the URL was http://). */
  httpRoute: HttpRoute;
  /** The answer to a CORS preflight sent to the final URL. */
  preflight: Preflight;
}

/** A script element with a `src`, resolved. */
export interface ScriptRef {
  /** Absolute URL (against `<base href>` and the final URL). */
  url: URL;
  integrity: string | null;
  thirdParty: boolean;
}

/** The read-only view every check evaluates. */
export interface AuditContext {
  final: URL;
  /** The final response came over HTTPS. */
  https: boolean;
  cookies: readonly CookieInfo[];
  /** A response header (repeated ones joined with ", "), or null. */
  header(name: string): string | null;
  /** The parsed page, or null when the body is not HTML. */
  document: Document | null;
  /** Values of `<meta http-equiv=name content>` (name case-insensitive). */
  httpEquiv(name: string): string[];
  /** Values of `<meta name=name content>` (name case-insensitive). */
  metaNamed(name: string): string[];
  /** Scripts with a `src`, resolved, in document order. */
  scripts: readonly ScriptRef[];
  /** Subresource URLs of the page, resolved, split as browsers treat mixed content. */
  subresources: { active: readonly string[]; passive: readonly string[] };
  csp: {
    /** Policies from Content-Security-Policy headers. */
    header: CspPolicy[];
    /** Policies from `<meta http-equiv="Content-Security-Policy">`. */
    meta: CspPolicy[];
    /** Policies that could not be read. */
    invalid: string[];
    /** Content-Security-Policy-Report-Only, as sent (reports, enforces nothing). */
    reportOnly: string | null;
  };
  /** The Strict-Transport-Security header parsed, or null (absent or invalid). */
  hsts: Hsts | null;
  /** HSTS in force: an HTTPS response with a valid header of (about) six months or more. */
  hstsProtects: boolean;
  /** Where the page's http:// URL led. */
  httpRoute: HttpRoute;
  /** The answer to the CORS preflight. */
  preflight: Preflight;
}

/**
 * Elements other than scripts that load active content (blocked when insecure on an HTTPS
 * page), with their URL attribute. Scripts come from `scripts` (data blocks are never fetched).
 */
const ACTIVE: readonly [string, string][] = [
  ["iframe[src]", "src"],
  ["frame[src]", "src"],
  ["object[data]", "data"],
  ["embed[src]", "src"],
];

/** Elements that load passive content (images and media), with their URL attribute. */
const PASSIVE: readonly [string, string][] = [
  ["img[src]", "src"],
  ["audio[src]", "src"],
  ["video[src]", "src"],
  ["video[poster]", "poster"],
  ["source[src]", "src"],
];

/** URLs of a `srcset` (each candidate's first token). */
function srcsetUrls(srcset: string | null): string[] {
  return (srcset ?? "").split(",").map((c) => c.trim().split(/\s+/)[0]).filter(Boolean);
}

function subresourcesOf(doc: Document, base: string, scripts: readonly ScriptRef[]) {
  const resolve = (href: string | null) => resolveUrl(href, base);
  const collect = (pairs: readonly [string, string][]) =>
    pairs.flatMap(([sel, name]) => select(doc, sel).map((el) => resolve(attr(el, name))));
  const stylesheets = select(doc, "link[href]")
    .filter((l) => (attr(l, "rel") ?? "").toLowerCase().split(/\s+/).includes("stylesheet"))
    .map((l) => resolve(attr(l, "href")));
  const srcsets = select(doc, "img[srcset], source[srcset]")
    .flatMap((el) => srcsetUrls(attr(el, "srcset")).map(resolve));
  const clean = (urls: (string | null)[]) => [...new Set(urls.filter((u): u is string => !!u))];
  return {
    active: clean([...scripts.map((s) => s.url.href), ...collect(ACTIVE), ...stylesheets]),
    passive: clean([...collect(PASSIVE), ...srcsets]),
  };
}

function metaValues(doc: Document | null, attribute: string, name: string): string[] {
  if (!doc) return [];
  return select(doc, `meta[${attribute}]`)
    .filter((m) => attr(m, attribute)?.toLowerCase() === name.toLowerCase())
    .map((m) => attr(m, "content"))
    .filter((v): v is string => v !== null);
}

/** Reads an audit's input once into the context the checks share. */
export function buildAuditContext(input: AuditInput): AuditContext {
  const final = new URL(input.finalUrl);
  const https = final.protocol === "https:";
  const doc = input.document;
  const base = doc ? documentBase(doc, input.finalUrl) : input.finalUrl;
  const header = (name: string) => input.headers.get(name);
  const cspHeader = header("content-security-policy");
  const fromHeader = parseCsp(cspHeader ? [cspHeader] : []);
  const fromMeta = parseCsp(metaValues(doc, "http-equiv", "content-security-policy"), true);
  const hsts = parseHsts(header("strict-transport-security"));
  const scripts: ScriptRef[] = [];
  for (const el of doc ? select(doc, "script[src]").filter(runsAsScript) : []) {
    const href = resolveUrl(attr(el, "src"), base);
    if (!href) continue;
    const url = new URL(href);
    scripts.push({
      url,
      integrity: attr(el, "integrity"),
      thirdParty: isThirdParty(url.hostname, final.hostname),
    });
  }
  return {
    final,
    https,
    cookies: input.cookies,
    header,
    document: doc,
    httpEquiv: (name) => metaValues(doc, "http-equiv", name),
    metaNamed: (name) => metaValues(doc, "name", name),
    scripts,
    subresources: doc ? subresourcesOf(doc, base, scripts) : { active: [], passive: [] },
    csp: {
      header: fromHeader.policies,
      meta: fromMeta.policies,
      invalid: [...fromHeader.invalid, ...fromMeta.invalid],
      reportOnly: header("content-security-policy-report-only"),
    },
    hsts,
    hstsProtects: https && hsts !== null && hsts.maxAge >= HSTS_MIN_MAX_AGE,
    httpRoute: input.httpRoute,
    preflight: input.preflight,
  };
}
