/**
 * The hot path: a `GET`/`HEAD /:code` whose link is in an in-process cache is answered
 * before the router. A cached redirect is the one request a link shortener serves over and
 * over, and through the full middleware chain (request id, log line, CORS, route validator,
 * each an async layer) it cost about twice a bare `Deno.serve`; here it costs one `Map`
 * lookup more. The response is the same as the routed one (same status and headers, same
 * log line); anything else (a miss, another method, a caller's own `X-Request-Id`, a path
 * that needs decoding) goes through the router unchanged.
 */
import type { Cache } from "../../shared/bindings/cache.ts";
import { pathOf } from "../../shared/contract/front.ts";
import { logEvent, type LogSink } from "../../shared/contract/log.ts";
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
 * is told of every redirect it answers (the click counter), with the `Referer`.
 */
export function hotRedirect(
  cache: SyncReadableCache,
  log: LogSink,
  onHit: (code: string, method: string, referer: string | null) => void = () => {},
): (req: Request) => Response | null {
  return (req) => {
    const started = performance.now();
    const method = req.method;
    if (method !== "GET" && method !== "HEAD") return null;
    const path = pathOf(req.url);
    if (!CODE_PATH.test(path)) return null;
    // `has`, not `get`: once a served request's headers are looked at, Deno.serve copies them
    // all after the handler anyway, and `has` builds that list once for the `get` below too.
    const headers = req.headers;
    if (headers.has("x-request-id")) return null;
    const code = path.slice(1);
    const location = cache.getSync(cacheKey(code));
    if (location === null) return null;
    onHit(code, method, headers.get("referer"));
    const requestId = crypto.randomUUID();
    // The headers shared/contract/middleware.ts sets on every response (a test compares this
    // response with the routed one, so the two cannot drift apart).
    const res = new Response(null, {
      status: 302,
      headers: { location, ...CORS_HEADERS, [REQUEST_ID_HEADER]: requestId },
    });
    logEvent(
      { requestId, method, path, status: 302, durationMs: elapsedMs(started), code: null },
      log,
    );
    return res;
  };
}
