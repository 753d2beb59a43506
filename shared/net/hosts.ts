/**
 * Registrable domains and the third-party test, by a small eTLD+1 heuristic: the last two
 * labels of a name, or the last three when the last two are a known multi-part public suffix
 * (`co.uk`, `com.au`, `github.io`...). Not the full Public Suffix List: good enough to tell a
 * page's own hosts from a CDN's, and it needs no download. IP literals are their own domain.
 */
import { isIpLiteral, normaliseHost } from "./address.ts";

/**
 * Multi-part public suffixes (ICANN second levels and a few common hosting platforms of the
 * PSL's private section, where sibling subdomains belong to different owners). Extend freely.
 */
export const MULTI_PART_SUFFIXES: ReadonlySet<string> = new Set([
  // United Kingdom, Australia, New Zealand, Japan, Brazil, India, South Africa, and others.
  "co.uk",
  "org.uk",
  "ac.uk",
  "gov.uk",
  "me.uk",
  "ltd.uk",
  "plc.uk",
  "net.uk",
  "com.au",
  "net.au",
  "org.au",
  "edu.au",
  "gov.au",
  "co.nz",
  "org.nz",
  "co.jp",
  "ne.jp",
  "or.jp",
  "ac.jp",
  "com.br",
  "net.br",
  "org.br",
  "co.in",
  "net.in",
  "org.in",
  "co.za",
  "com.cn",
  "com.hk",
  "com.sg",
  "com.tw",
  "com.mx",
  "com.ar",
  "com.tr",
  "co.kr",
  "co.il",
  // Hosting platforms: each subdomain is a different site.
  "github.io",
  "gitlab.io",
  "netlify.app",
  "vercel.app",
  "pages.dev",
  "workers.dev",
  "herokuapp.com",
  "web.app",
  "firebaseapp.com",
  "azurewebsites.net",
  "cloudfront.net",
  "deno.dev",
  "fly.dev",
  "onrender.com",
  "blogspot.com",
]);

/**
 * The registrable domain (eTLD+1) of a host name (as in `URL.hostname`, no port), lowercased;
 * an IP literal or a single-label name is returned as is. `www.example.co.uk` → `example.co.uk`.
 */
export function registrableDomain(host: string): string {
  const h = normaliseHost(host);
  if (isIpLiteral(h)) return h;
  const labels = h.split(".").filter(Boolean);
  if (labels.length <= 2) return labels.join(".");
  const lastTwo = labels.slice(-2).join(".");
  return MULTI_PART_SUFFIXES.has(lastTwo) ? labels.slice(-3).join(".") : lastTwo;
}

/** True when host name `host` belongs to another registrable domain than `pageHost`. */
export function isThirdParty(host: string, pageHost: string): boolean {
  return registrableDomain(host) !== registrableDomain(pageHost);
}
