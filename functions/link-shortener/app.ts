/**
 * The link-shortener experiment's app: `POST /shorten`, `POST /shorten/bulk`, `GET /:code`
 * (302 to the stored URL, cache first, libSQL behind it, each click counted in memory; a
 * password-protected or click-limited link decided by libSQL each time, see gate.ts),
 * `POST /:code` (the password form), `GET /:code/info`, `GET /:code/stats`, `GET /:code/qr`,
 * and `PATCH`/`DELETE /:code` with the link's token.
 */
import type { Context } from "hono";
import type { Redis } from "@upstash/redis";
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import type { Cache } from "../../shared/bindings/cache.ts";
import type { Db } from "../../shared/bindings/db.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorText, logEvent, type LogSink, stderrSink } from "../../shared/contract/log.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { requestOrigin } from "../../shared/contract/request_origin.ts";
import { decimalParam, enumParam, type Param, readJsonBody } from "../../shared/contract/params.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { ClickCounter } from "./clicks.ts";
import { isCodeShaped } from "./codes.ts";
import { hotRedirect } from "./hot_path.ts";
import { DEFAULT_CACHE_TTL_SECONDS, isExpired, type LinkOptions, type LinkRecord } from "./link.ts";
import { bearerToken, MANAGE_TOKEN_MESSAGE, tokenMatches } from "./manage_token.ts";
import { renderQr } from "./qr.ts";
import { FixedWindowLimiter, type Limiter, SharedWindowLimiter } from "./rate_limit.ts";
import { LinkResolver } from "./resolve.ts";
import { MAX_BODY_BYTES, SHORTEN_MESSAGES } from "./messages.ts";
import { pointsAtSelf } from "./self_link.ts";
import { Gate, PASSWORD_HEADER } from "./gate.ts";
import { PASSWORD_FIELD } from "./password_form.ts";
import { applyUtm, removeUtm } from "./utm.ts";
import { readBodyLimited } from "../../shared/contract/body_limit.ts";
import { shorten } from "./shorten.ts";
import { LinkStore } from "./store.ts";
import { ROOT } from "./root.ts";

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** The message of every unknown code. */
export const LINK_NOT_FOUND = "Link not found";

/** The message of a redirect (or QR code) of an expired link. */
export const LINK_EXPIRED = "Link expired";

/** The message of a management request whose cache invalidation failed (nothing changed). */
export const CACHE_INVALIDATION_FAILED = "Cache unavailable: the link was not changed";

/** The optional per-client limit of `POST /shorten`. */
export interface RateLimit {
  /** Requests per window and client address. */
  limit: number;
  windowSeconds: number;
  /** Upstash's client: given, the limit is counted there, across instances (rate_limit.ts). */
  redis?: () => Promise<Redis>;
}

/** What this experiment needs from its environment. */
export interface Bindings {
  /** `DB`: libSQL, the source of truth (migrated with `LINK_MIGRATIONS` on first use). */
  DB: Db;
  /** `CACHE`: the read-through cache of code → URL. */
  CACHE: Cache;
  /** Longest time a resolved link stays in the shared cache (seconds; default 3600). */
  cacheTtlSeconds?: number;
  /**
   * `CACHE_LOCAL_TTL_MS`: lifetime of a link in this instance's own memory, the longest a change
   * made elsewhere goes unseen here (default 4000 alone, 750 in front of Upstash; 0: none).
   */
  localCacheTtlMs?: number;
  /** `PUBLIC_BASE_URL`: origin (and optional path) of short URLs; default the request's origin. */
  publicBaseUrl?: string;
  /**
   * The click counter, flushing to `db` (config.ts builds one that flushes every
   * `CLICK_FLUSH_MS`); without it the app makes one that is flushed by hand (tests).
   */
  clicks?: ClickCounter;
  /** `SHORTEN_RATE_LIMIT` / `SHORTEN_RATE_WINDOW_SECONDS`; absent: no limit. */
  shortenRateLimit?: RateLimit;
  /** Milliseconds since the epoch for the password blocks (tests move it; default Date.now). */
  now?: () => number;
  /** At shutdown: flush the clicks, close the database. */
  close?(): Promise<void>;
}

/** The app, with its click counter (the bindings' `close` flushes it at shutdown). */
export type LinkShortenerApp = LightApp & { clicks: ClickCounter };

/**
 * The body schemas (zod) and the bulk reader, loaded by the first request with a body: a
 * redirect never evaluates them.
 */
const loadSchemas = onFirstUse(() => import("./schema.ts"));
const loadBulk = onFirstUse(() => import("./bulk.ts"));

/** The path parameter of the code routes (any string: a code that is not one is not found). */
const CODE_PARAM: Param<string> = {
  in: "path",
  required: true,
  description: "The short code",
  example: "aZ3k9Qx",
  code: "INVALID_INPUT",
  message: "Missing code",
  parse(raw) {
    // The router gives a path parameter only when it has one; an MCP call may not.
    if (typeof raw !== "string" || raw === "") throw new ApiError(this.code, this.message);
    return raw;
  },
};

/** The parameters of the code routes. */
const CODE_PARAMS = { code: CODE_PARAM };

/** The parameters of `GET /{code}/qr`. */
const QR_PARAMS = {
  ...CODE_PARAMS,
  format: enumParam(["svg", "png"], {
    description: "Image format (default svg)",
    message: SHORTEN_MESSAGES.qrFormat,
    default: "svg",
  }),
  size: decimalParam(64, 2048, {
    description: "Width in pixels (default 256)",
    message: SHORTEN_MESSAGES.qrSize,
    default: 256,
  }),
  margin: decimalParam(0, 16, {
    description: "Quiet zone in modules (default 4)",
    message: SHORTEN_MESSAGES.qrMargin,
    default: 4,
  }),
  ecc: enumParam(["L", "M", "Q", "H"], {
    description: "Error-correction level (default M)",
    message: SHORTEN_MESSAGES.qrEcc,
    default: "M",
  }),
};

/** Largest body of the password form's submission. */
export const MAX_FORM_BYTES = 2 * 1024;

/** The limiter of `POST /shorten`: in Upstash when it is given, else in this process. */
function limiterOf(limit: RateLimit | undefined, log: LogSink): Limiter | null {
  if (!limit) return null;
  const windowMs = limit.windowSeconds * 1000;
  return limit.redis
    ? new SharedWindowLimiter(limit.limit, windowMs, limit.redis, { log })
    : new FixedWindowLimiter(limit.limit, windowMs);
}

/** The client address a request came from (the TCP peer), or "unknown" outside Deno.serve. */
function clientAddress(c: Context): string {
  const info = c.env as { remoteAddr?: { hostname?: string } } | undefined;
  return info?.remoteAddr?.hostname ?? "unknown";
}

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "shorten_link",
    operationId: "shortenLink",
    description: "Create a short link to an http(s) URL, under a random 7-character code or a " +
      "custom `code` (3-64 letters, digits, - or _), optionally expiring at `expiresAt` " +
      "(ISO 8601). Returns the `shortUrl`, the `code` and the `manageToken` that alone " +
      "can later change or delete the link: it is shown only once, keep it.",
  },
  {
    name: "get_link_info",
    operationId: "getLinkInfo",
    description:
      "Describe a short link by its code: the target URL, when it was created, when it " +
      "expires, whether it has expired, and its click statistics. Use it to see where a " +
      "short link goes without following it.",
  },
  {
    name: "update_link",
    operationId: "updateLink",
    description: "Change where a short link points (`url`) and/or when it expires (`expiresAt`, " +
      "ISO 8601, or null for never). Needs the link's `manageToken` (from shorten_link) as " +
      "`token`. Answers the changed link; later redirects go to the new target at once.",
  },
  {
    name: "delete_link",
    operationId: "deleteLink",
    description: "Delete a short link and its statistics, by code. Needs the link's " +
      "`manageToken` (from shorten_link) as `token`. The code is free again afterwards.",
  },
  {
    name: "get_link_stats",
    operationId: "getLinkStats",
    description:
      "Click statistics of a short link by its code: total clicks, clicks per day over " +
      "the last 30 days, the last click's time and the top referring hosts.",
  },
];

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(
  bindings: Bindings,
  options: ExperimentOptions = {},
): LinkShortenerApp {
  const log = options.log ?? stderrSink;
  const clicks = bindings.clicks ?? new ClickCounter(bindings.DB, { log });
  const store = new LinkStore(bindings.DB, log);
  const resolver = new LinkResolver(store, bindings.CACHE, {
    ttlMs: (bindings.cacheTtlSeconds ?? DEFAULT_CACHE_TTL_SECONDS) * 1000,
    localTtlMs: bindings.localCacheTtlMs,
    log,
    // A change's marker outlives any lookup that read the row before it (two DB deadlines).
    tombstoneMs: 2 * bindings.DB.timeoutMs + 2_000,
  });
  // Hits of the in-process tier skip the router (see hot_path.ts) and are counted there.
  const preRoute = hotRedirect(resolver.local, log, (code, method, referer, at) => {
    if (method === "GET") clicks.record(code, referer, at);
  });
  // Its schemas (zod) load with the document or a body, not with the first redirect.
  const app = createLightApp(ROOT, () => import("./operations.ts"), { ...options, log, preRoute });
  const gate = new Gate({
    db: bindings.DB,
    store,
    log,
    onClick: (code, referer) => clicks.record(code, referer),
    now: bindings.now,
  });
  const limiter = limiterOf(bindings.shortenRateLimit, log);
  /** Short URLs' base: the configured one, else the request's origin (`requestOrigin`, which
   * refuses a malformed Host, is called first in either case). */
  const baseOf = (origin: string) => bindings.publicBaseUrl ?? origin;

  /** The link under `code` whose manage token the request carries; else 404 / 401. */
  const authorized = async (c: Context, code: string) => {
    const found = isCodeShaped(code) ? await store.findManaged(code) : null;
    if (found === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    if (!await tokenMatches(bearerToken(c.req.header("authorization")), found.manageHash)) {
      throw new ApiError("INVALID_INPUT", MANAGE_TOKEN_MESSAGE, 401);
    }
    return found as { link: LinkRecord; manageHash: string; options: LinkOptions };
  };

  /** Removes `code` from the cache before a change; nothing changes when it cannot. */
  const invalidateFirst = async (code: string) => {
    try {
      await resolver.invalidate(code);
    } catch (err) {
      logEvent(
        { level: "error", event: "cache_invalidation_failed", code, message: errorText(err) },
        log,
      );
      throw new ApiError("STORAGE_ERROR", CACHE_INVALIDATION_FAILED);
    }
  };

  /**
   * Removes `code` from the cache again after the change: a lookup that read the old row
   * before the change and filled the cache after the first removal is undone.
   */
  const invalidateAfter = async (code: string) => {
    await resolver.invalidate(code).catch(() => {});
  };

  // Bodies are read by readJsonBody (8 KiB cap, counted as it streams; "Invalid JSON"
  // whatever the Content-Type) and the route's schema.
  /** The per-client limit of link creation (a bulk request counts once). */
  const checkLimit = async (c: Context) => {
    if (!limiter) return;
    const verdict = await limiter.take(clientAddress(c));
    if (!verdict.allowed) {
      c.header("Retry-After", String(verdict.retryAfterSeconds));
      throw new ApiError(
        "INVALID_INPUT",
        `Too many links: at most ${limiter.limit} per ${limiter.windowMs / 1000} s`,
        429,
      );
    }
  };

  const route = <P extends Record<string, Param<unknown>>>(
    method: "get" | "post" | "patch" | "delete",
    path: string,
    operationId: string,
    params?: P,
  ) => ({ method, path, operationId, params });

  addRoute(app, route("post", "/shorten", "shortenLink"), async (c) => {
    const origin = requestOrigin(c.req.raw);
    await checkLimit(c);
    const input = await readJsonBody(c, (await loadSchemas()).ShortenBody, MAX_BODY_BYTES);
    const base = baseOf(origin);
    if (pointsAtSelf(input.url, [origin, base])) {
      throw new ApiError("INVALID_URL", SHORTEN_MESSAGES.selfLink);
    }
    const { link, manageToken } = await shorten(store, input);
    return c.json({ ...link, shortUrl: `${base}/${link.code}`, manageToken }, 201);
  });

  addRoute(app, route("post", "/shorten/bulk", "shortenLinksInBulk"), async (c) => {
    const origin = requestOrigin(c.req.raw);
    await checkLimit(c);
    const { bulkRows, MAX_BULK_BYTES, shortenBulk } = await loadBulk();
    const body = await readBodyLimited(c.req.raw, MAX_BULK_BYTES);
    const rows = bulkRows(body, c.req.header("content-type"));
    const base = baseOf(origin);
    const results = await shortenBulk(store, rows, {
      base,
      pointsAtSelf: (url) => pointsAtSelf(url, [origin, base]),
    });
    return c.json({ results }, 200);
  });

  addRoute(app, route("get", "/{code}", "resolveLink", CODE_PARAMS), async (c, { code }) => {
    const found = isCodeShaped(code) ? await resolver.resolve(code) : null;
    if (found === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    if (found.expired) throw new ApiError("NOT_FOUND", LINK_EXPIRED);
    if (found.gated) return await gate.redirect(c, code, c.req.header(PASSWORD_HEADER) ?? null);
    // HEAD (link checkers, previews) is answered but not counted.
    if (c.req.method === "GET") clicks.record(code, c.req.header("referer") ?? null);
    return c.redirect(found.url, 302);
  });

  /**
   * The link under `code` (expired or not) with its options; a password-protected one only
   * for the holder of its manage token (its statistics would tell who opened it).
   */
  const findAny = async (c: Context, code: string) => {
    const found = isCodeShaped(code) ? await store.findManaged(code) : null;
    if (found === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    if (
      found.options.passwordProtected &&
      !await tokenMatches(bearerToken(c.req.header("authorization")), found.manageHash)
    ) {
      throw new ApiError("INVALID_INPUT", MANAGE_TOKEN_MESSAGE, 401);
    }
    return found;
  };

  addRoute(app, route("get", "/{code}/info", "getLinkInfo", CODE_PARAMS), async (c, { code }) => {
    const { link, options } = await findAny(c, code);
    const stats = await clicks.stats(store, link.code);
    return c.json({
      ...link,
      expired: isExpired(link),
      passwordProtected: options.passwordProtected,
      maxClicks: options.maxClicks,
      clicksLeft: options.maxClicks === null
        ? null
        : Math.max(0, options.maxClicks - options.clicksUsed),
      utm: options.utm,
      ...stats,
    }, 200);
  });

  addRoute(app, route("get", "/{code}/stats", "getLinkStats", CODE_PARAMS), async (c, { code }) => {
    const { link } = await findAny(c, code);
    return c.json({ code: link.code, ...await clicks.stats(store, link.code) }, 200);
  });

  addRoute(app, route("get", "/{code}/qr", "getLinkQrCode", QR_PARAMS), async (c, params) => {
    const base = baseOf(requestOrigin(c.req.raw));
    const { code, ...qr } = params;
    const link = isCodeShaped(code) ? await store.findByCode(code) : null;
    if (link === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    if (isExpired(link)) throw new ApiError("NOT_FOUND", LINK_EXPIRED);
    const image = await renderQr(`${base}/${link.code}`, qr);
    return c.body(image.body as string, 200, {
      "content-type": image.contentType,
      "cache-control": "public, max-age=86400",
    });
  });

  addRoute(app, route("patch", "/{code}", "updateLink", CODE_PARAMS), async (c, { code }) => {
    const origin = requestOrigin(c.req.raw);
    const { link, manageHash, options } = await authorized(c, code);
    const input = await readJsonBody(c, (await loadSchemas()).PatchBody, MAX_BODY_BYTES);
    if (input.url !== undefined && pointsAtSelf(input.url, [origin, baseOf(origin)])) {
      throw new ApiError("INVALID_URL", SHORTEN_MESSAGES.selfLink);
    }
    // The stored target carries the UTM parameters: a new target gets the link's (or the
    // new) ones; new ones replace the old on the current target.
    const utm = input.utm === undefined ? options.utm : input.utm;
    const base = input.url ?? (options.utm ? removeUtm(link.url, options.utm) : link.url);
    const url = utm ? applyUtm(base, utm) : base;
    const expiresAt = input.expiresAt === undefined ? link.expiresAt : input.expiresAt;
    await invalidateFirst(code);
    const updated = await store.update(code, manageHash, { url, expiresAt, utm });
    await invalidateAfter(code);
    if (updated === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    return c.json({
      ...updated,
      passwordProtected: options.passwordProtected,
      maxClicks: options.maxClicks,
      utm,
    }, 200);
  });

  addRoute(app, route("delete", "/{code}", "deleteLink", CODE_PARAMS), async (c, { code }) => {
    const { manageHash } = await authorized(c, code);
    await invalidateFirst(code);
    const removed = await store.remove(code, manageHash);
    await invalidateAfter(code);
    clicks.forget(code);
    if (!removed) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    await gate.forget(code).catch(() => {}); // the code is free again: so are its attempts
    return c.body(null, 204);
  });

  addMcp(app, ROOT, MCP_TOOLS);

  // After the MCP endpoint: its `POST /mcp` is not a code.
  const passwordForm = route("post", "/{code}", "resolveProtectedLink", CODE_PARAMS);
  addRoute(app, passwordForm, async (c, { code }) => {
    if (!isCodeShaped(code)) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    const body = new TextDecoder().decode(await readBodyLimited(c.req.raw, MAX_FORM_BYTES));
    const password = new URLSearchParams(body).get(PASSWORD_FIELD) ||
      c.req.header(PASSWORD_HEADER) || null;
    return await gate.redirect(c, code, password);
  });

  return Object.assign(app, { clicks });
}
