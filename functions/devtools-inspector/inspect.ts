/** `/inspect` end to end: fetch safely, then describe the response the way DevTools would. */
import { type Budget, cooperative } from "../../shared/contract/cooperative.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { DEFAULT_PARSE_LIMITS } from "../../shared/net/html.ts";
import { type FetchPolicy, type FetchResult, safeFetch } from "../../shared/net/safe_fetch.ts";
import { securityAudit } from "./audit.ts";
import { bodyKind } from "./body_kind.ts";
import { describeCaching } from "./caching.ts";
import { describeCompression } from "./compression.ts";
import { describeCookies } from "./cookies.ts";
import { scanPage } from "./page_scan.ts";
import { pageStats } from "./page_stats.ts";
import {
  corsPreflight,
  type HttpRoute,
  type Preflight,
  probeHttpRoute,
  routeOf,
} from "./probes.ts";
import type { InspectResult, TlsInfo } from "./schema.ts";
import { phaseTimings } from "./timing.ts";
import { inspectTls } from "./tls.ts";

/**
 * Milliseconds a page's scan and audit may take together (`ANALYSIS_BUDGET_MS`): past it the
 * request ends with 502 PARSE_ERROR naming the bound (see README, "Limits and security").
 */
export const DEFAULT_INSPECT_BUDGET_MS = DEFAULT_PARSE_LIMITS.maxMillis;

/** What the Observatory's extra requests found (see probes.ts). */
export interface Probes {
  /** Where the page's http:// URL led; for an http:// page, its own fetch. */
  httpRoute: HttpRoute;
  preflight: Preflight;
  /** The TLS handshake with the final host; null (or absent) for an http:// page. */
  tls?: TlsInfo | null;
}

/**
 * Fetches `url` under `policy` and inspects the response (errors are the safe fetch's). An
 * https:// page's http:// twin is fetched alongside, and a CORS preflight and a TLS handshake
 * go to the final URL afterwards, while the page is scanned; all share one deadline of
 * `policy.timeoutMs`. `now` dates the certificate's days left; `budgetMs` bounds the scan and
 * the audit (see `inspectResponse`).
 */
export async function inspectUrl(
  url: string,
  policy: FetchPolicy,
  now: () => number = Date.now,
  budgetMs: number = DEFAULT_INSPECT_BUDGET_MS,
): Promise<InspectResult> {
  const fetchedAt = new Date().toISOString();
  const done = new AbortController();
  const signal = AbortSignal.any([AbortSignal.timeout(policy.timeoutMs), done.signal]);
  try {
    // Only a valid https:// URL needs a twin; anything else fails in the page fetch first.
    const https = /^\s*https:/i.test(url);
    const twin = https ? probeHttpRoute(url, policy, signal) : null;
    const res = await safeFetch(url, policy, { signal });
    const probes = Promise.all([
      twin ?? { reached: true as const, steps: routeOf(res) },
      corsPreflight(res.finalUrl, policy, signal),
      inspectTls(res.finalUrl, policy, signal, now()),
    ]).then(([httpRoute, preflight, tls]) => ({ httpRoute, preflight, tls }));
    return await inspectResponse(res, fetchedAt, probes, budgetMs);
  } finally {
    done.abort(); // the probes, if the page or its scan failed first
  }
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

/**
 * Describes a fetched response (apart from the fetch so that tests can feed one in). The page
 * is scanned once, within the shared parse limits: a page over one is 502 PARSE_ERROR. The
 * probes are awaited only for the audit, after the scan. The scan and the audit share
 * `budgetMs` of the inspector's own time (the wait for the probes is not counted), checked at
 * every cooperative yield: past it, 502 PARSE_ERROR naming the bound.
 */
export async function inspectResponse(
  res: FetchResult,
  fetchedAt: string,
  probes: Probes | Promise<Probes>,
  budgetMs: number = DEFAULT_INSPECT_BUDGET_MS,
): Promise<InspectResult> {
  const budget: Budget = {
    endsAt: performance.now() + budgetMs,
    over: () => new ApiError("PARSE_ERROR", `Page took longer than ${budgetMs} ms to inspect`),
  };
  const yieldSoon = cooperative(25, budget);
  const kind = bodyKind(res.contentType, res.body, res.charset);
  const scan = kind === "html" ? await scanPage(res.text, { maxMillis: budgetMs }) : null;
  await yieldSoon();
  // Set-Cookie lines are few: the fetch refuses response heads over 16 KiB.
  const cookies = describeCookies(res.setCookies, new URL(res.finalUrl));
  const waited = performance.now();
  const found = await probes;
  // The network's time is not the inspector's: the deadline moves by the wait.
  budget.endsAt += performance.now() - waited;
  const security = await securityAudit(
    {
      finalUrl: res.finalUrl,
      headers: res.headers,
      cookies,
      page: scan,
      ...found,
    },
    undefined,
    yieldSoon,
  );
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
    redirects: res.redirects.map(({ url, status, location }) => ({ url, status, location })),
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
    tls: found.tls ?? null,
    security,
    page: scan ? pageStats(scan, res.body.length, res.charset) : null,
  };
}
