/** Builds audit inputs for the unit tests of the security table without any network. */
import { securityAudit } from "../../functions/devtools-inspector/audit.ts";
import { describeCookies } from "../../functions/devtools-inspector/cookies.ts";
import type { SecurityReport } from "../../functions/devtools-inspector/schema.ts";
import { parseHtml } from "../../shared/net/html.ts";

/** A response to audit: the final URL, its headers, Set-Cookie lines and HTML (null: not HTML). */
export interface Scenario {
  url?: string;
  headers?: Record<string, string>;
  setCookies?: string[];
  html?: string | null;
}

/** The HTTPS page most scenarios start from. */
export const PAGE = "https://shop.example/account/";

/** Audits a scenario with the whole table. */
export function audit(s: Scenario): SecurityReport {
  const url = s.url ?? PAGE;
  const html = s.html === undefined ? "<!doctype html><title>t</title>" : s.html;
  return securityAudit({
    finalUrl: url,
    headers: new Headers(s.headers ?? {}),
    cookies: describeCookies(s.setCookies ?? [], new URL(url)),
    document: html === null ? null : parseHtml(html),
  });
}

/** The result id one check gave for a scenario. */
export function resultOf(s: Scenario, checkId: string): string {
  const row = audit(s).checks.find((c) => c.id === checkId);
  if (!row) throw new Error(`no check ${checkId}`);
  return row.result;
}
