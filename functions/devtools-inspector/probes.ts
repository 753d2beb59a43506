/**
 * The two requests the MDN HTTP Observatory makes besides the page itself: the page's http://
 * URL, to see where plain HTTP leads (the redirection check), and a CORS preflight to the final
 * URL (the CORS check). Both go through the safe fetch, under the inspection's one deadline; a
 * failure is an answer ("no HTTP", "no preflight answer"), never an error of the inspection.
 * Only statuses and headers are read: neither downloads a body.
 */
import { type FetchPolicy, type FetchResult, safeFetch } from "../../shared/net/safe_fetch.ts";

/** One response of a chain that started from http://: each redirect hop, then the final one. */
export interface RouteStep {
  url: string;
  status: number;
}

/** Where plain HTTP led: the chain of responses, or why there is none. */
export type HttpRoute =
  | { reached: true; steps: RouteStep[] }
  | { reached: false; reason: string };

/** The preflight's answer (any status), or why there is none. */
export type Preflight =
  | { answered: true; origin: string; status: number; headers: Headers }
  | { answered: false; origin: string; reason: string };

/**
 * The Origin the preflight claims. A reserved name (RFC 6761 `.example`), so that a server that
 * allows it can only be reflecting whatever it is sent.
 */
export const CORS_PROBE_ORIGIN = "https://inspector.example";

/** The route of a fetch's own chain: its redirect hops, then its final response. */
export function routeOf(res: FetchResult): RouteStep[] {
  return [
    ...res.redirects.map((hop) => ({ url: hop.url, status: hop.status })),
    { url: res.finalUrl, status: res.status },
  ];
}

/**
 * The http:// counterpart the Observatory starts from: same host, path and query, scheme http
 * on its default port (an explicit https port says nothing about where HTTP listens).
 */
export function httpCounterpart(url: string): string {
  const u = new URL(url);
  return `http://${u.host.replace(/:\d+$/, "")}${u.pathname}${u.search}`;
}

/** The message of a failure, for evidence. */
function reasonOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}

/**
 * Where `url`'s plain-HTTP twin leads. An http:// URL needs no probe: its own fetch is the
 * route (`own`).
 */
export async function probeHttpRoute(
  url: string,
  policy: FetchPolicy,
  signal: AbortSignal,
): Promise<HttpRoute> {
  try {
    return {
      reached: true,
      steps: routeOf(await safeFetch(httpCounterpart(url), policy, { signal, readBody: false })),
    };
  } catch (err) {
    return { reached: false, reason: reasonOf(err) };
  }
}

/**
 * A CORS preflight (OPTIONS with Origin and Access-Control-Request-Method: GET) to `url`,
 * redirects followed, as the Observatory sends it to the final URL of the page.
 */
export async function corsPreflight(
  url: string,
  policy: FetchPolicy,
  signal: AbortSignal,
): Promise<Preflight> {
  const origin = CORS_PROBE_ORIGIN;
  try {
    const res = await safeFetch(url, policy, {
      method: "OPTIONS",
      signal,
      readBody: false,
      headers: { "origin": origin, "access-control-request-method": "GET" },
    });
    return { answered: true, origin, status: res.status, headers: res.headers };
  } catch (err) {
    return { answered: false, origin, reason: reasonOf(err) };
  }
}
