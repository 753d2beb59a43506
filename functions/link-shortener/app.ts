/**
 * The link-shortener experiment's app: `POST /shorten`, `GET /:code` (302 to the stored URL,
 * cache first, libSQL behind it) and `GET /:code/info`.
 */
import { createRoute } from "@hono/zod-openapi";
import type { Client } from "@libsql/client";
import {
  createExperimentApp,
  type ExperimentApp,
  type ExperimentOptions,
} from "../../shared/contract/app.ts";
import type { Cache } from "../../shared/bindings/cache.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { stderrSink } from "../../shared/contract/log.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { readJsonBody } from "../../shared/contract/validation.ts";
import { isCodeShaped } from "./codes.ts";
import { hotRedirect, isSyncReadable } from "./hot_path.ts";
import { isExpired } from "./link.ts";
import { LinkResolver } from "./resolve.ts";
import {
  CodeParams,
  LinkSchema,
  MAX_BODY_BYTES,
  SHORTEN_MESSAGES,
  ShortenBody,
  ShortenResult,
} from "./schema.ts";
import { pointsAtSelf } from "./self_link.ts";
import { shorten } from "./shorten.ts";
import { LinkStore } from "./store.ts";
import { ROOT } from "./root.ts";

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** Default `CACHE_TTL_SECONDS`: how long a resolved link stays cached. */
export const DEFAULT_CACHE_TTL_SECONDS = 3600;

/** The message of every unknown or expired code. */
export const LINK_NOT_FOUND = "Link not found";

/** What this experiment needs from its environment. */
export interface Bindings {
  /** `DB`: libSQL, the source of truth, already migrated (see `LINK_MIGRATIONS`). */
  db: Client;
  /** `CACHE`: the read-through cache of code → URL. */
  cache: Cache;
  /** Longest time a resolved link stays cached (seconds; default 3600). */
  cacheTtlSeconds?: number;
  /** `PUBLIC_BASE_URL`: origin (and optional path) of short URLs; default the request's origin. */
  publicBaseUrl?: string;
}

const shortenRoute = createRoute({
  method: "post",
  path: "/shorten",
  summary: "Shorten a URL",
  description: "Stores `url` under a custom `code` or a random 7-character base62 one. " +
    "Without `code`, posting a URL that already has an unexpired link with a generated code " +
    "(and the same `expiresAt`) returns that link with 200. Bodies over 8 KiB are refused (413).",
  request: {
    body: { required: true, content: { "application/json": { schema: ShortenBody } } },
  },
  responses: {
    201: jsonContent(ShortenResult, "The link was created"),
    200: jsonContent(ShortenResult, "The same URL already had this link"),
    ...errorResponses("INVALID_INPUT", "INVALID_URL", [413, "INVALID_INPUT"], "DATABASE_ERROR"),
  },
});

const redirectRoute = createRoute({
  method: "get",
  path: "/{code}",
  summary: "Follow a short link",
  description: "302 to the stored URL: looked up in the cache first, then in libSQL " +
    "(which then fills the cache). Unknown and expired codes are 404.",
  request: { params: CodeParams },
  responses: {
    302: {
      description: "Redirect to the stored URL",
      headers: { Location: { description: "The stored URL", schema: { type: "string" } } },
    },
    ...errorResponses("NOT_FOUND", "DATABASE_ERROR"),
  },
});

const infoRoute = createRoute({
  method: "get",
  path: "/{code}/info",
  summary: "Describe a short link",
  request: { params: CodeParams },
  responses: {
    200: jsonContent(LinkSchema, "The link record"),
    ...errorResponses("NOT_FOUND", "DATABASE_ERROR"),
  },
});

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const log = options.log ?? stderrSink;
  // Cache hits of an in-process cache skip the router (see hot_path.ts); the rest is routed.
  const preRoute = isSyncReadable(bindings.cache) ? hotRedirect(bindings.cache, log) : undefined;
  const app = createExperimentApp(ROOT, { ...options, log, preRoute });
  const store = new LinkStore(bindings.db, log);
  const ttlMs = (bindings.cacheTtlSeconds ?? DEFAULT_CACHE_TTL_SECONDS) * 1000;
  const resolver = new LinkResolver(store, bindings.cache, ttlMs, log);

  // The body is read by readJsonBody (8 KiB cap, "Invalid JSON" whatever the Content-Type),
  // so the route's own body validators (415 on a form content type) must not run: the full
  // declaration goes to the OpenAPI registry, the handler is mounted without the body.
  app.openAPIRegistry.registerPath(shortenRoute);
  app.openapi({ ...shortenRoute, request: {}, hide: true }, async (c) => {
    const input = await readJsonBody(c, ShortenBody, MAX_BODY_BYTES);
    const origin = new URL(c.req.url).origin;
    const base = bindings.publicBaseUrl ?? origin;
    if (pointsAtSelf(input.url, [origin, base])) {
      throw new ApiError("INVALID_URL", SHORTEN_MESSAGES.selfLink);
    }
    const { link, created } = await shorten(store, input);
    const body = { ...link, shortUrl: `${base}/${link.code}` };
    return created ? c.json(body, 201) : c.json(body, 200);
  });

  app.openapi(redirectRoute, async (c) => {
    const { code } = c.req.valid("param");
    const url = isCodeShaped(code) ? await resolver.resolve(code) : null;
    if (url === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    return c.redirect(url, 302);
  });

  app.openapi(infoRoute, async (c) => {
    const { code } = c.req.valid("param");
    const link = isCodeShaped(code) ? await store.findByCode(code) : null;
    if (link === null || isExpired(link)) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    return c.json(link, 200);
  });
  return app;
}
