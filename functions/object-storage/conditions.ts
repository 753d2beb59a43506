/**
 * The HTTP read conditions of `GET /object` and `GET /public/*`: `Range` (one byte range,
 * RFC 9110 §14), `If-None-Match` and `If-Range`.
 */
import type { ByteRange, ObjectInfo } from "../../shared/bindings/bucket/mod.ts";
import { opaqueTag } from "../../shared/bindings/bucket/mod.ts";

/** A byte range as asked for, before the size is known. */
export type RangeRequest = { start: number; end?: number } | { suffix: number };

/**
 * Parses `Range: bytes=a-b`, `bytes=a-` or `bytes=-n`. Returns null when there is no range or
 * the header is to be ignored (another unit, several ranges, or a malformed one): the whole
 * object is then sent, as RFC 9110 allows.
 */
export function parseRange(header: string | undefined): RangeRequest | null {
  const m = header?.trim().match(/^bytes\s*=\s*(\d*)\s*-\s*(\d*)$/i);
  if (!m || (m[1] === "" && m[2] === "")) return null;
  const first = m[1] === "" ? undefined : Number(m[1]);
  const last = m[2] === "" ? undefined : Number(m[2]);
  if (![first, last].every((n) => n === undefined || Number.isSafeInteger(n))) return null;
  if (first === undefined) return { suffix: last! };
  if (last !== undefined && last < first) return null;
  return { start: first, end: last };
}

/** The bytes a range covers in an object of `size` bytes; null when it is unsatisfiable. */
export function resolveRange(request: RangeRequest, size: number): ByteRange | null {
  if (size === 0) return null;
  if ("suffix" in request) {
    if (request.suffix === 0) return null;
    return { start: Math.max(0, size - request.suffix), end: size - 1 };
  }
  if (request.start >= size) return null;
  return { start: request.start, end: Math.min(request.end ?? size - 1, size - 1) };
}

/** True when `If-None-Match` matches the object (weak comparison; `*` matches any object). */
export function noneMatchHits(header: string, etag: string): boolean {
  const tags = header.split(",").map((t) => t.trim()).filter(Boolean);
  return tags.some((t) => t === "*" || opaqueTag(t) === opaqueTag(etag));
}

/**
 * True when a `Range` may be honoured under `If-Range`: no `If-Range`, or it names the current
 * object (a strong entity tag, or the exact `Last-Modified` date).
 */
export function ifRangeHolds(header: string | undefined, info: ObjectInfo): boolean {
  if (header === undefined) return true;
  const value = header.trim();
  if (value.startsWith('"')) return opaqueTag(value) === opaqueTag(info.etag);
  if (value.startsWith("W/")) return false; // weak tags never qualify for If-Range
  const date = Date.parse(value);
  return !Number.isNaN(date) && Math.floor(info.uploaded.getTime() / 1000) === date / 1000;
}
