/**
 * The object-storage experiment's app: `PUT /object` streams a body into the private or the
 * public bucket; `GET`/`HEAD`/`DELETE /object` and `GET /objects` read them back;
 * `GET /public/*` is the public bucket's direct URL (see {@link createApp}).
 */
import type { Context } from "hono";
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import {
  DEFAULT_CONTENT_TYPE,
  encodeKeyPath,
  isValidKey,
  type ObjectBucket,
} from "../../shared/bindings/bucket/mod.ts";
import type { Bindings } from "./config.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { checkDeclaredLength, limitBody } from "../../shared/contract/body_limit.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { type Params, readJsonBody } from "../../shared/contract/params.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { serveObject } from "./serve_object.ts";
import { storage, storageFailure } from "./storage_errors.ts";
import {
  LIST_LIMIT,
  LIST_PARAMS,
  OBJECT_MESSAGES,
  OBJECT_PARAMS,
  PUBLIC_PATH_PARAMS,
  SIGNED_PARAMS,
  UPLOAD_PARAMS,
} from "./params.ts";
import { undecodableParam } from "./raw_query.ts";
import {
  isAdmin,
  signGrant,
  SIGNING_MESSAGES,
  type SigningConfig,
  verifyGrant,
} from "./signing.ts";
import { ROOT } from "./root.ts";

/** Bytes of a `POST /object/sign` body at most. */
const MAX_SIGN_BODY_BYTES = 4 * 1024;

/** The sign body's schema (zod), loaded by the first signing request: uploads never load it. */
const loadSchemas = onFirstUse(() => import("./schema.ts"));

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

export type { Bindings };

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "put_object",
    operationId: "putObject",
    description: "Store a text object under `key` (slash-separated path, e.g. notes/today.txt) " +
      'in the private bucket, or in the public one with `public` set to "true" (the answer ' +
      "then may carry a direct `url`). `content` is the object's text; `content-type` is " +
      "recorded with it (default application/octet-stream). An existing object under the key " +
      "is replaced. Larger or binary objects go through PUT /object.",
  },
  {
    name: "get_object",
    operationId: "getObject",
    description: "Read the object stored under `key` (from the public bucket with `public` set " +
      'to "true"). Text and JSON come back as text, images as image content, other bytes as ' +
      "an embedded resource (base64).",
  },
  {
    name: "list_objects",
    operationId: "listObjects",
    description: "List stored objects in key order, a page at a time: key, size, content " +
      "type, ETag and upload time of each. Filter with `prefix`; pass the answer's `cursor` " +
      "to get the next page; `limit` is the page size (1-1000).",
  },
];

/**
 * Creates the app over its bindings (pure: tests call `app.request()`). `GET /public/<key>`
 * serves the public bucket itself when it is the local folder, or when it is an S3 bucket and
 * no `PUBLIC_BUCKET_URL` says where the store publishes it; with an S3 bucket and
 * `PUBLIC_BUCKET_URL`, it redirects (302) to `<PUBLIC_BUCKET_URL>/<key>`, the `url` an upload
 * answered with.
 */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  // Its schemas (zod) load with the document or a signing request, not with an upload.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  // A key or prefix that does not decode is refused, not kept as written (see raw_query.ts).
  app.use("*", async (c, next) => {
    const name = undecodableParam(c.req.url, ["key", "prefix"]);
    if (name !== null) {
      const message = name === "key" ? OBJECT_MESSAGES.invalidKey : OBJECT_MESSAGES.invalidPrefix;
      throw new ApiError("INVALID_INPUT", message);
    }
    await next();
  });
  const bucketOf = (isPublic: string | undefined): ObjectBucket =>
    isPublic === "true" ? bindings.PUBLIC_BUCKET : bindings.BUCKET;
  const max = bindings.maxObjectBytes;

  /** Streams the request body into `key`, refusing it past `limit` bytes (nothing stored). */
  const store = async (
    c: Context,
    isPublic: boolean,
    key: string,
    contentType: string,
    limit: number,
  ) => {
    // Refuse up front what the client already says is too large: nothing is read or stored.
    checkDeclaredLength(c.req.raw, limit, "Object");
    const declared = Number(c.req.header("content-length"));
    const body = limitBody(c.req.raw.body, limit, { subject: "Object" });
    try {
      await bucketOf(isPublic ? "true" : undefined).put(key, body.stream, {
        contentType,
        size: Number.isSafeInteger(declared) ? declared : undefined,
      });
    } catch (err) {
      // Too large, stalled or cut off: the body's own error, not the bucket's.
      throw body.failure ?? storageFailure(err);
    }
    const base = bindings.PUBLIC_BUCKET_URL;
    const url = isPublic && base ? `${base}/${encodeKeyPath(key)}` : undefined;
    return c.json({ key, uploaded: true as const, ...(url ? { url } : {}) }, 200);
  };

  const route = <P extends Params>(
    method: "get" | "head" | "post" | "put" | "delete",
    path: string,
    operationId: string,
    params?: P,
  ) => ({ method, path, operationId, params });

  addRoute(app, route("put", "/object", "putObject", UPLOAD_PARAMS), (c, params) => {
    const contentType = params["content-type"]?.trim() || DEFAULT_CONTENT_TYPE;
    return store(c, params.public === "true", params.key, contentType, max);
  });

  const now = bindings.now ?? Date.now;
  /** The signing secrets, or the 404 of a route that is not there. */
  const signing = (): SigningConfig => {
    if (!bindings.signing) throw new ApiError("NOT_FOUND", "Not found");
    return bindings.signing;
  };

  // The body is read by readJsonBody (4 KiB cap, "Invalid JSON" whatever the Content-Type).
  addRoute(app, route("post", "/object/sign", "signObjectUrl"), async (c) => {
    const config = signing();
    if (!(await isAdmin(config, c.req.header("authorization")))) {
      c.header("www-authenticate", 'Bearer realm="object-storage"');
      throw new ApiError("INVALID_INPUT", SIGNING_MESSAGES.unauthorized, 401);
    }
    const input = await readJsonBody(c, (await loadSchemas()).SignBody, MAX_SIGN_BODY_BYTES);
    if (input.maxBytes !== undefined && input.maxBytes > max) {
      throw new ApiError("INVALID_INPUT", `maxBytes must be at most ${max}`);
    }
    const expires = Math.floor(now() / 1000) + input.expiresIn;
    const query = await signGrant(config, {
      method: input.method,
      key: input.key,
      public: input.public === true,
      expires,
      maxBytes: input.maxBytes,
      contentType: input.contentType,
    });
    const url = new URL(`/object/signed?${query}`, c.req.url).toString();
    return c.json({ url, expiresAt: new Date(expires * 1000).toISOString() }, 200);
  });

  const signed = (method: "get" | "put", operationId: string) =>
    route(method, "/object/signed", operationId, SIGNED_PARAMS);
  addRoute(app, signed("get", "getSignedObject"), async (c) => {
    const grant = await verifyGrant(signing(), "GET", new URL(c.req.url).searchParams, now());
    return serveObject(c, bucketOf(grant.public ? "true" : undefined), grant.key);
  });

  addRoute(app, signed("put", "putSignedObject"), async (c) => {
    const grant = await verifyGrant(signing(), "PUT", new URL(c.req.url).searchParams, now());
    const sent = c.req.header("content-type")?.trim() || undefined;
    if (grant.contentType !== undefined && sent !== grant.contentType) {
      throw new ApiError("INVALID_INPUT", SIGNING_MESSAGES.contentType, 403);
    }
    const limit = Math.min(grant.maxBytes ?? max, max);
    return store(c, grant.public, grant.key, sent ?? DEFAULT_CONTENT_TYPE, limit);
  });

  const read = route("get", "/object", "getObject", OBJECT_PARAMS);
  addRoute(app, read, (c, { key, public: isPublic }) => serveObject(c, bucketOf(isPublic), key));
  // Hono runs the GET handler for HEAD; this only documents HEAD in /openapi.json.
  addRoute(app, route("head", "/object", "headObject", OBJECT_PARAMS), (c, params) => {
    return serveObject(c, bucketOf(params.public), params.key);
  });

  const remove = route("delete", "/object", "deleteObject", OBJECT_PARAMS);
  addRoute(app, remove, async (c, { key, public: isPublic }) => {
    const deleted = await storage(() => bucketOf(isPublic).delete(key));
    if (!deleted) throw new ApiError("NOT_FOUND", OBJECT_MESSAGES.notFound);
    return c.json({ key, deleted: true as const }, 200);
  });

  addRoute(app, route("get", "/objects", "listObjects", LIST_PARAMS), async (c, query) => {
    const after = query.cursor === undefined ? undefined : decodeCursor(query.cursor);
    if (after === null) throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidCursor);
    const page = await storage(() =>
      bucketOf(query.public).list({
        prefix: query.prefix,
        limit: query.limit ?? LIST_LIMIT.default,
        after,
      })
    );
    return c.json({
      objects: page.objects.map((o) => ({
        key: o.key,
        size: o.size,
        contentType: o.contentType,
        etag: o.etag,
        uploadedAt: o.uploaded.toISOString(),
      })),
      cursor: page.next === null ? null : encodeCursor(page.next),
    }, 200);
  });

  const servePublic = (c: Context) => {
    const key = publicKey(c);
    const base = bindings.PUBLIC_BUCKET_URL;
    if (bindings.PUBLIC_BUCKET.kind === "s3" && base && !isOwnPublicPath(base, c.req.url)) {
      // The store (or its CDN) serves the bytes; no bucket call, so no bucket latency.
      return c.redirect(`${base}/${encodeKeyPath(key)}`, 302);
    }
    return serveObject(c, bindings.PUBLIC_BUCKET, key);
  };
  // `/public/{key}` takes one segment; a key with `/` is the same route under Hono's
  // `:key{.+}`, which spans `/` (both read the key from the raw path).
  addRoute(app, route("get", "/public/{key}", "getPublicObject", PUBLIC_PATH_PARAMS), servePublic);
  app.get("/public/:key{.+}", servePublic);
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}

/**
 * The key of a `/public/<key>` URL: the path after the prefix as the client sent it (the same
 * string the router matched, not a dot-segment-normalised one), percent-decoded once.
 */
function publicKey(c: Context): string {
  const url = c.req.url;
  const pathStart = url.indexOf("/", url.indexOf("://") + 3);
  const path = url.slice(pathStart).replace(/[?#].*$/s, "");
  const raw = path.slice("/public/".length);
  let key: string;
  try {
    key = decodeURIComponent(raw);
  } catch {
    throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidKey);
  }
  if (!isValidKey(key)) throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidKey);
  return key;
}

/**
 * True when `base` is this very route (`PUBLIC_BUCKET_URL=<this service>/public`, as in
 * `deno task dev`): a redirect there would loop, so the service serves the bytes itself.
 */
function isOwnPublicPath(base: string, requestUrl: string): boolean {
  const target = new URL(base);
  return target.origin === new URL(requestUrl).origin &&
    target.pathname.replace(/\/+$/, "") === "/public";
}
