/**
 * Everything a security check may look at, read once from the response: URLs, headers, cookies,
 * the scanned page with its `<meta>` equivalents, CSP and HSTS. Checks only read from it.
 */
import { cooperative } from "../../shared/contract/cooperative.ts";
import { resolveUrl } from "../../shared/net/html.ts";
import { isThirdParty } from "../../shared/net/hosts.ts";
import { type CspPolicy, intersectPolicies, parseCsp, type ParsedCsp } from "./csp.ts";
import { type Hsts, HSTS_MIN_MAX_AGE, parseHsts } from "./hsts.ts";
import type { PageScan } from "./page_scan.ts";
import type { HttpRoute, Preflight } from "./probes.ts";
import type { CookieInfo, TlsInfo } from "./schema.ts";

/** What the audit is built from. */
export interface AuditInput {
  /** The URL of the final response (after redirects). */
  finalUrl: string;
  /** Its headers. */
  headers: Headers;
  /** The cookies it sets. */
  cookies: CookieInfo[];
  /** The scanned page, or null when the body is not HTML. */
  page: PageScan | null;
  /** Where the page's http:// URL led (the fetch itself when the URL was http://). */
  httpRoute: HttpRoute;
  /** The answer to a CORS preflight sent to the final URL. */
  preflight: Preflight;
  /** The TLS handshake with the final host; null (or absent) for an http:// page. */
  tls?: TlsInfo | null;
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
  /** The scanned page, or null when the body is not HTML. */
  page: PageScan | null;
  /** Values of `<meta http-equiv=name content>` (name case-insensitive). */
  httpEquiv(name: string): string[];
  /** Values of `<meta name=name content>` (name case-insensitive). */
  metaNamed(name: string): string[];
  /** Scripts with a `src`, resolved, in document order. */
  scripts: readonly ScriptRef[];
  /** `<link rel=stylesheet>`s, resolved, in document order. */
  stylesheets: readonly ScriptRef[];
  /**
   * Subresource URLs of an HTTPS page that load over plain HTTP (resolved, distinct, in
   * document order), split as browsers treat mixed content; empty for an HTTP page, where
   * mixed content does not apply.
   */
  insecureSubresources: { active: readonly string[]; passive: readonly string[] };
  csp: {
    /** Policies from Content-Security-Policy headers. */
    header: CspPolicy[];
    /** Policies from `<meta http-equiv="Content-Security-Policy">`. */
    meta: CspPolicy[];
    /** Policies that could not be read. */
    invalid: string[];
    /** What every enforced policy allows together (their intersection); null without one. */
    effective: CspPolicy | null;
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
  /** The TLS handshake with the final host; null for an http:// page. */
  tls: TlsInfo | null;
}

/**
 * A scheme of the URL's own, once tabs and newlines are dropped; leading C0 controls and spaces
 * are skipped, as the URL parser skips them.
 */
// deno-lint-ignore no-control-regex
const OWN_SCHEME = /^[\x00-\x20]*[a-z][a-z\d+\-.]*:/i;

/**
 * The distinct http: URLs among `urls` resolved against `base`, in order. Against an https:
 * base only a URL with a scheme of its own can be http:, so the others are not resolved
 * (a large page has thousands of relative ones). `out` may hold some already, which come first.
 */
async function httpUrls(
  urls: readonly string[],
  base: string,
  yieldSoon: () => Promise<void>,
  out = new Set<string>(),
): Promise<string[]> {
  const httpsBase = base.startsWith("https:");
  for (let i = 0; i < urls.length; i++) {
    if (i % YIELD_EVERY === 0) await yieldSoon();
    const url = urls[i];
    if (httpsBase && !OWN_SCHEME.test(url.replace(/[\t\n\r]/g, ""))) continue;
    const href = resolveUrl(url, base);
    if (href?.startsWith("http:")) out.add(href);
  }
  return [...out];
}

/** Items of a page-sized list handled between two calls of the yield (each call is cheap). */
const YIELD_EVERY = 256;

/**
 * `parseCsp` of each policy in turn (every comma-separated one of every value), with a yield
 * between them: a page may hold thousands of values, and one value millions of policies.
 */
async function parseEach(
  values: readonly string[],
  fromMeta: boolean,
  yieldSoon: () => Promise<void>,
): Promise<ParsedCsp> {
  const out: ParsedCsp = { policies: [], invalid: [] };
  // A policy repeated word for word is parsed once and is the same object each time, so that
  // intersectAll folds it in once: 150,000 copies of one <meta> were 10× a plain page's time.
  const parsed = new Map<string, ParsedCsp>();
  for (const value of values) {
    for (const serialized of value.split(",")) {
      let one = parsed.get(serialized);
      if (!one) parsed.set(serialized, one = parseCsp([serialized], fromMeta));
      if (one.policies.length) out.policies.push(one.policies[0]);
      if (one.invalid.length) out.invalid.push(one.invalid[0]);
      await yieldSoon();
    }
  }
  return out;
}

/**
 * `intersectPolicies` of all of them, folded a pair at a time with a yield between pairs
 * (intersecting is associative: the fold gives the same policy as one call).
 */
async function intersectAll(
  policies: readonly CspPolicy[],
  yieldSoon: () => Promise<void>,
): Promise<CspPolicy | null> {
  let out: CspPolicy | null = null;
  // Intersecting is idempotent too: a policy already folded in changes nothing.
  const folded = new Set<CspPolicy>();
  for (const policy of policies) {
    if (folded.has(policy)) continue;
    folded.add(policy);
    out = out ? intersectPolicies([out, policy]) : new Map(policy);
    await yieldSoon();
  }
  return out;
}

/** Contents of the page's `<meta>`s whose `attribute` is `name` (case-insensitive). */
function metaValues(page: PageScan | null, attribute: "httpEquiv" | "name", name: string) {
  const wanted = name.toLowerCase();
  return (page?.metas ?? []).filter((m) => m[attribute]?.toLowerCase() === wanted)
    .map((m) => m.content);
}

/**
 * Reads an audit's input once into the context the checks share. `yieldSoon` is called between
 * steps and every few hundred items of the page's lists (the request's cooperative yield, which
 * checks its time budget).
 */
export async function buildAuditContext(
  input: AuditInput,
  yieldSoon: () => Promise<void> = cooperative(),
): Promise<AuditContext> {
  const final = new URL(input.finalUrl);
  const https = final.protocol === "https:";
  const page = input.page;
  const base = (page?.baseHref && resolveUrl(page.baseHref, input.finalUrl)) || input.finalUrl;
  const header = (name: string) => input.headers.get(name);
  const cspHeader = header("content-security-policy");
  const fromHeader = parseCsp(cspHeader ? [cspHeader] : []);
  const cspMetas = metaValues(page, "httpEquiv", "content-security-policy");
  const fromMeta = await parseEach(cspMetas, true, yieldSoon);
  const effective = await intersectAll([...fromHeader.policies, ...fromMeta.policies], yieldSoon);
  const hsts = parseHsts(header("strict-transport-security"));
  // Host → third party: a page's many URLs share few hosts.
  const thirdParty = new Map<string, boolean>();
  const resolveAll = async (sources: readonly { src: string; integrity: string | null }[]) => {
    const out: ScriptRef[] = [];
    for (let i = 0; i < sources.length; i++) {
      if (i % YIELD_EVERY === 0) await yieldSoon();
      const { src, integrity } = sources[i];
      const href = resolveUrl(src, base);
      if (!href) continue;
      const url = new URL(href);
      let third = thirdParty.get(url.hostname);
      if (third === undefined) {
        thirdParty.set(url.hostname, third = isThirdParty(url.hostname, final.hostname));
      }
      out.push({ url, integrity, thirdParty: third });
    }
    return out;
  };
  const scripts = await resolveAll(page?.scriptSources ?? []);
  const stylesheets = await resolveAll(page?.stylesheetSources ?? []);
  // Scripts are resolved already: only their scheme is read (no copy of a page-sized list).
  const insecureScripts = new Set<string>();
  for (let i = 0; https && i < scripts.length; i++) {
    if (i % YIELD_EVERY === 0) await yieldSoon();
    if (scripts[i].url.protocol === "http:") insecureScripts.add(scripts[i].url.href);
  }
  const insecureSubresources = https && page
    ? {
      active: await httpUrls(page.active, base, yieldSoon, insecureScripts),
      passive: await httpUrls(page.passive, base, yieldSoon),
    }
    : { active: [], passive: [] };
  return {
    final,
    https,
    cookies: input.cookies,
    header,
    page,
    httpEquiv: (name) => metaValues(page, "httpEquiv", name),
    metaNamed: (name) => metaValues(page, "name", name),
    scripts,
    stylesheets,
    insecureSubresources,
    csp: {
      header: fromHeader.policies,
      meta: fromMeta.policies,
      invalid: [...fromHeader.invalid, ...fromMeta.invalid],
      effective,
      reportOnly: header("content-security-policy-report-only"),
    },
    hsts,
    hstsProtects: https && hsts !== null && hsts.maxAge >= HSTS_MIN_MAX_AGE,
    httpRoute: input.httpRoute,
    preflight: input.preflight,
    tls: input.tls ?? null,
  };
}
