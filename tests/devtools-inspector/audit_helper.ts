/** Builds audit inputs for the unit tests of the security table without any network. */
import { securityAudit } from "../../functions/devtools-inspector/audit.ts";
import type { AuditInput } from "../../functions/devtools-inspector/audit_context.ts";
import { describeCookies } from "../../functions/devtools-inspector/cookies.ts";
import { scanPage } from "../../functions/devtools-inspector/page_scan.ts";
import {
  CORS_PROBE_ORIGIN,
  type HttpRoute,
  type Preflight,
} from "../../functions/devtools-inspector/probes.ts";
import type { SecurityReport, TlsInfo } from "../../functions/devtools-inspector/schema.ts";

/** A response to audit: the final URL, its headers, Set-Cookie lines and HTML (null: not HTML). */
export interface Scenario {
  url?: string;
  headers?: Record<string, string>;
  setCookies?: string[];
  html?: string | null;
  /** Where http:// led; by default a 301 from the page's http:// URL to an https:// page. */
  httpRoute?: HttpRoute;
  /** The preflight's answer; by default a 204 without CORS headers. */
  preflight?: Preflight | { status: number; headers: Record<string, string> };
  /** The TLS handshake report; by default none (as for an http:// page). */
  tls?: TlsInfo | null;
}

/** The HTTPS page most scenarios start from. */
export const PAGE = "https://shop.example/account/";

/** Audits a scenario with the whole table. */
export async function audit(s: Scenario): Promise<SecurityReport> {
  return securityAudit(await auditInput(s));
}

/** The audit's input for a scenario (what the route hands the table). */
export async function auditInput(s: Scenario): Promise<AuditInput> {
  const url = s.url ?? PAGE;
  const html = s.html === undefined ? "<!doctype html><title>t</title>" : s.html;
  return {
    finalUrl: url,
    headers: new Headers(s.headers ?? {}),
    cookies: describeCookies(s.setCookies ?? [], new URL(url)),
    page: html === null ? null : await scanPage(html),
    httpRoute: s.httpRoute ?? defaultRoute(url),
    preflight: preflightOf(s.preflight),
    tls: s.tls ?? null,
  };
}

/** An http:// page is its own route (no redirect); an https:// one is reached by a 301. */
function defaultRoute(url: string): HttpRoute {
  const steps = url.startsWith("http:")
    ? [{ url, status: 200 }]
    : [{ url: url.replace(/^https:/, "http:"), status: 301 }, { url, status: 200 }];
  return { reached: true, steps };
}

function preflightOf(p: Scenario["preflight"]): Preflight {
  if (p === undefined) {
    return { answered: true, origin: CORS_PROBE_ORIGIN, status: 204, headers: new Headers() };
  }
  if ("answered" in p) return p;
  return {
    answered: true,
    origin: CORS_PROBE_ORIGIN,
    status: p.status,
    headers: new Headers(p.headers),
  };
}

/** The result id one check gave for a scenario. */
export async function resultOf(s: Scenario, checkId: string): Promise<string> {
  const row = (await audit(s)).checks.find((c) => c.id === checkId);
  if (!row) throw new Error(`no check ${checkId}`);
  return row.result;
}
