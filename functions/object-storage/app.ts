/**
 * The object-storage experiment's app: `PUT /object` streams a body into the private or the
 * public bucket; `GET`/`HEAD`/`DELETE /object` and `GET /objects` read them back;
 * `GET /public/*` serves the public bucket directly when it is the local folder default.
 */
import type { Context } from "hono";
import {
  createExperimentApp,
  type ExperimentApp,
  type ExperimentOptions,
} from "../../shared/contract/app.ts";
import { DEFAULT_CONTENT_TYPE, type ObjectBucket } from "../../shared/bindings/bucket/mod.ts";
import type { BucketBindings } from "../../shared/bindings/bucket/mod.ts";
import { encodeKeyPath, isValidKey } from "../../shared/bindings/bucket/mod.ts";
import { ApiError, payloadTooLarge } from "../../shared/contract/errors.ts";
import { decodeCursor, encodeCursor } from "./cursor.ts";
import { serveObject } from "./serve_object.ts";
import { storage, storageFailure } from "./storage_errors.ts";
import { guardBody } from "./upload_body.ts";
import {
  deleteRoute,
  headRoute,
  LIST_LIMIT,
  listRoute,
  OBJECT_MESSAGES,
  publicRoute,
  readRoute,
  uploadRoute,
} from "./routes.ts";
import { ROOT } from "./root.ts";

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment (see shared/bindings/bucket/env.ts). */
export type Bindings = BucketBindings;

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const app = createExperimentApp(ROOT, options);
  const bucketOf = (isPublic: string | undefined): ObjectBucket =>
    isPublic === "true" ? bindings.PUBLIC_BUCKET : bindings.BUCKET;
  const max = bindings.maxObjectBytes;

  app.openapi(uploadRoute, async (c) => {
    const { key, public: isPublic } = c.req.valid("query");
    const contentType = c.req.valid("header")["content-type"]?.trim() || DEFAULT_CONTENT_TYPE;
    const declared = Number(c.req.header("content-length"));
    // Refuse up front what the client already says is too large: nothing is read or stored.
    if (declared > max) throw tooLarge(max);
    const body = guardBody(c.req.raw.body, max);
    try {
      await bucketOf(isPublic).put(key, body.stream, {
        contentType,
        size: Number.isSafeInteger(declared) ? declared : undefined,
      });
    } catch (err) {
      if (body.tooLarge) throw tooLarge(max);
      if (body.readFailed) throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.bodyCutOff);
      throw storageFailure(err);
    }
    const base = bindings.PUBLIC_BUCKET_URL;
    const url = isPublic === "true" && base ? `${base}/${encodeKeyPath(key)}` : undefined;
    return c.json({ key, uploaded: true as const, ...(url ? { url } : {}) }, 200);
  });

  app.openapi(readRoute, (c) => {
    const { key, public: isPublic } = c.req.valid("query");
    return serveObject(c, bucketOf(isPublic), key);
  });
  // Hono runs the GET handler for HEAD; this only documents HEAD in /openapi.json.
  app.openAPIRegistry.registerPath(headRoute);

  app.openapi(deleteRoute, async (c) => {
    const { key, public: isPublic } = c.req.valid("query");
    const deleted = await storage(() => bucketOf(isPublic).delete(key));
    if (!deleted) throw new ApiError("NOT_FOUND", OBJECT_MESSAGES.notFound);
    return c.json({ key, deleted: true as const }, 200);
  });

  app.openapi(listRoute, async (c) => {
    const query = c.req.valid("query");
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

  // Direct URLs exist only for the local folder; an S3 public bucket has its own.
  if (bindings.PUBLIC_BUCKET.kind === "filesystem") {
    app.openapi(publicRoute, (c) => serveObject(c, bindings.PUBLIC_BUCKET, publicKey(c)));
  }
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

function tooLarge(max: number): ApiError {
  return payloadTooLarge("Object", max);
}
