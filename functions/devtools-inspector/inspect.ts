/** `/inspect` end to end: fetch safely, then describe the response the way DevTools would. */
import { type FetchPolicy, type FetchResult, safeFetch } from "../../shared/net/safe_fetch.ts";
import { type Document, parseHtml } from "../../shared/net/html.ts";
import { securityAudit } from "./audit.ts";
import { bodyKind } from "./body_kind.ts";
import { describeCaching } from "./caching.ts";
import { describeCompression } from "./compression.ts";
import { describeCookies } from "./cookies.ts";
import { pageStats } from "./page_stats.ts";
import type { InspectResult } from "./schema.ts";
import { phaseTimings } from "./timing.ts";

/** Fetches `url` under `policy` and inspects the response (errors are the safe fetch's). */
export async function inspectUrl(url: string, policy: FetchPolicy): Promise<InspectResult> {
  const fetchedAt = new Date().toISOString();
  return inspectResponse(await safeFetch(url, policy), fetchedAt);
}

/**
 * Response headers as a record of lowercased names, repeated ones joined with ", ".
 * Set-Cookie is left out: `cookies` describes it without the values.
 */
export function headerRecord(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers) {
    if (name !== "set-cookie") out[name] = value;
  }
  return out;
}

/** Describes a fetched response (apart from the fetch so that tests can feed one in). */
export function inspectResponse(res: FetchResult, fetchedAt: string): InspectResult {
  const kind = bodyKind(res.contentType, res.body, res.charset);
  const document: Document | null = kind === "html" ? parseHtml(res.text) : null;
  const cookies = describeCookies(res.setCookies, new URL(res.finalUrl));
  return {
    url: res.url,
    finalUrl: res.finalUrl,
    status: res.status,
    statusText: res.statusText,
    fetchedAt,
    httpVersion: `HTTP/${res.httpVersion}`,
    remoteAddress: res.remoteAddress,
    contentType: res.contentType,
    bodyKind: kind,
    redirects: res.redirects,
    timing: phaseTimings(res.timings),
    headers: headerRecord(res.headers),
    cookies,
    caching: describeCaching(res.headers, res.status),
    compression: describeCompression(
      res.headers.get("content-encoding"),
      res.encodedBytes,
      res.body.length,
      kind,
    ),
    security: securityAudit({ finalUrl: res.finalUrl, headers: res.headers, cookies, document }),
    page: document ? pageStats(document, res.body.length, res.charset) : null,
  };
}
