/**
 * Reading an object back over HTTP, for `GET`/`HEAD /object` and `GET /public/*`: the bytes
 * streamed with Content-Type, Content-Length, ETag and Last-Modified, one `Range` (206 / 416),
 * `If-None-Match` (304) and `If-Range`.
 */
import type { Context } from "hono";
import {
  type ByteRange,
  type ObjectBucket,
  ObjectChangedError,
  type ObjectInfo,
} from "../../shared/bindings/bucket/mod.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { ifRangeHolds, noneMatchHits, parseRange, resolveRange } from "./conditions.ts";
import { OBJECT_MESSAGES } from "./params.ts";
import { storage, storageFailure } from "./storage_errors.ts";

// A conditional read looks the object up, then reads it; if it is replaced in between, the
// read is refused (If-Match) and the lookup is repeated this many times at most.
const CONDITIONAL_ATTEMPTS = 3;

/** Answers a read of `key` in `bucket` (GET, or HEAD when that is the request's method). */
export async function serveObject(c: Context, bucket: ObjectBucket, key: string) {
  const isHead = c.req.method === "HEAD";
  const ifNoneMatch = c.req.header("if-none-match");
  // RFC 9110 §14.2: Range is only for GET.
  const rangeRequest = isHead ? null : parseRange(c.req.header("range"));

  if (!isHead && ifNoneMatch === undefined && !rangeRequest) {
    // The common case: one round trip to the bucket.
    const object = await storage(() => bucket.get(key));
    if (!object) throw notFound();
    return respond(object.info, object.body);
  }

  for (let attempt = 0; attempt < CONDITIONAL_ATTEMPTS; attempt++) {
    const info = await storage(() => bucket.head(key));
    if (!info) throw notFound();
    if (ifNoneMatch !== undefined && noneMatchHits(ifNoneMatch, info.etag)) {
      return new Response(null, { status: 304, headers: validators(info) });
    }
    if (isHead) return respond(info, null);

    let range: ByteRange | undefined;
    if (rangeRequest && ifRangeHolds(c.req.header("if-range"), info)) {
      const resolved = resolveRange(rangeRequest, info.size);
      if (!resolved) {
        c.header("Content-Range", `bytes */${info.size}`);
        throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.rangeNotSatisfiable, 416);
      }
      range = resolved;
    }
    let object;
    try {
      object = await bucket.get(key, { range, ifMatch: info.etag });
    } catch (err) {
      if (err instanceof ObjectChangedError) continue;
      throw storageFailure(err);
    }
    if (!object) throw notFound();
    return respond(object.info, object.body, object.range);
  }
  throw storageFailure(new Error("object kept changing while being read"));
}

function notFound(): ApiError {
  return new ApiError("NOT_FOUND", OBJECT_MESSAGES.notFound);
}

/** ETag and Last-Modified: what 304s carry too. */
function validators(info: ObjectInfo): Headers {
  return new Headers({ "ETag": info.etag, "Last-Modified": info.uploaded.toUTCString() });
}

function respond(
  info: ObjectInfo,
  body: ReadableStream<Uint8Array> | null,
  range?: ByteRange,
): Response {
  const headers = validators(info);
  headers.set("Content-Type", info.contentType);
  headers.set("Accept-Ranges", "bytes");
  // Uploaded HTML or SVG must not run script with this service's origin.
  headers.set("X-Content-Type-Options", "nosniff");
  headers.set("Content-Security-Policy", "sandbox");
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${info.size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(body, { status: 206, headers });
  }
  headers.set("Content-Length", String(info.size));
  return new Response(body, { status: 200, headers });
}
