/**
 * The hot path: a `GET`/`HEAD /:code` whose link is in an in-process cache is answered
 * before the router. A cached redirect is the one request a link shortener serves over and
 * over, and through the full middleware chain (request id, log line, CORS, route validator,
 * each an async layer) it cost about twice a bare `Deno.serve`. Here it is a `Map` lookup, a
 * copy of a prebuilt 302 (its headers checked once per target, not per request), the request
 * id, the click and the log line written as a string. The response is the same as the routed
 * one (same status and headers, same log line); anything else (a miss, another method, a
 * caller's own `X-Request-Id`, a path that needs decoding) goes through the router unchanged.
 */
import type { Cache } from "../../shared/bindings/cache.ts";
import { pathOf } from "../../shared/contract/front.ts";
import { type LogSink, requestLine } from "../../shared/contract/log.ts";
import { CORS_HEADERS, elapsedMs, REQUEST_ID_HEADER } from "../../shared/contract/middleware.ts";
import { cacheKey } from "./resolve.ts";

/** A cache that can answer a read synchronously (the in-memory LRU can). */
export interface SyncReadableCache extends Cache {
  /** The live value under `key`, or null. */
  getSync(key: string): string | null;
}

/** True when `cache` can be read synchronously. */
export function isSyncReadable(cache: Cache): cache is SyncReadableCache {
  return typeof (cache as Partial<SyncReadableCache>).getSync === "function";
}

// Only paths that are a code as stored (no percent-escapes to decode, no trailing slash).
const CODE_PATH = /^\/[A-Za-z0-9_-]{3,64}$/;

/**
 * A function that answers a request from the cache, or returns null to let the router
 * answer it. `log` receives the same JSON line the request-log middleware writes; `onHit`
 * is told of every redirect it answers (the click counter), with the `Referer` and the time
 * (ms since the epoch, the log line's).
 */
export function hotRedirect(
  cache: SyncReadableCache,
  log: LogSink,
  onHit: (code: string, method: string, referer: string | null, at: number) => void = () => {},
): (req: Request) => Response | null {
  const templates = new RedirectTemplates();
  return (req) => {
    const started = performance.now();
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return null;
    const path = pathOf(req.url);
    if (!CODE_PATH.test(path)) return null;
    const code = path.slice(1);
    // The cache first: a miss leaves the request's headers unread for the router.
    const location = cache.getSync(cacheKey(code));
    if (location === null) return null;
    // `has`, not `get`: once a served request's headers are looked at, Deno.serve copies them
    // all after the handler anyway, and `has` builds that list once for the `get` below too.
    const headers = req.headers;
    if (headers.has("x-request-id")) return null;
    const now = Date.now(); // one clock read for the click and the log line
    onHit(code, method, headers.get("referer"), now);
    const requestId = crypto.randomUUID();
    const res = templates.of(location).clone();
    res.headers.append(REQUEST_ID_HEADER, requestId);
    log(requestLine(requestId, method, path, 302, elapsedMs(started), now));
    return res;
  };
}

/** How many targets' prebuilt redirects are kept (all are dropped when one more comes). */
const MAX_TEMPLATES = 1_000;

/**
 * A prebuilt 302 per target with the headers shared/contract/middleware.ts sets on every
 * response, in its order (a test compares it with the routed redirect, so the two cannot
 * drift apart): `clone()` copies its checked header list, where a `Response` built from an
 * init object checks every character of every header again (a third of the hot path's time).
 * The request id is appended to the copy.
 */
class RedirectTemplates {
  #byLocation = new Map<string, Response>();

  /** The 302 to `location`, without `X-Request-Id`; never served itself. */
  of(location: string): Response {
    let template = this.#byLocation.get(location);
    if (template === undefined) {
      if (this.#byLocation.size >= MAX_TEMPLATES) this.#byLocation.clear();
      template = new Response(null, { status: 302, headers: { location, ...CORS_HEADERS } });
      this.#byLocation.set(location, template);
    }
    return template;
  }
}
