/**
 * What a fetched body is, for the analyzer: an HTML page, a JSON manifest, or something it
 * cannot analyze (binary, CSS, JavaScript, JSON of another shape), which is a PARSE_ERROR.
 */
import { stripComments } from "jsonc-parser";
import { ApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { sniffKind } from "../../shared/net/sniff.ts";
import { isObject } from "./import_map.ts";
import { type ManifestFormat, manifestFormat } from "./manifest.ts";

/** How the analyzer reads a body. */
export type BodyKind =
  | { kind: "page"; warning: string | null }
  | { kind: "manifest"; format: ManifestFormat; json: Record<string, unknown> };

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
/** `application/json`, `text/json` and every `+json` type (`application/importmap+json`). */
const JSON_TYPE = /^(?:application\/(?:[\w.-]+\+)?json|text\/json)$/;
/** Types that carry no declared format, where the body itself decides. */
const UNTYPED = new Set(["text/plain", null]);

/** True when the body is bytes, not text: by its type checked against its first bytes. */
export function isBinary(res: Pick<FetchResult, "contentType" | "charset" | "body">): boolean {
  // A declared octet-stream is bytes to the analyzer even when they look like text.
  if (res.contentType === "application/octet-stream") return true;
  const kind = sniffKind(res.contentType, res.body, res.charset);
  return kind !== "html" && kind !== "json" && kind !== "text";
}

/**
 * Decides how to read a fetched body. The Content-Type wins when it says HTML or JSON;
 * `text/plain` or a missing type (raw file hosts serve package.json as text/plain) is JSON
 * when the name ends in `.json` or the body starts with `{` and parses, HTML otherwise.
 * Throws PARSE_ERROR for binary bodies, unreadable JSON, JSON that is no manifest, and other
 * types (CSS, JavaScript, XML).
 */
export function classifyBody(res: FetchResult): BodyKind {
  const type = res.contentType;
  if (isBinary(res)) {
    throw new ApiError(
      "PARSE_ERROR",
      `Response is binary (${type ?? "no Content-Type"}): not an HTML page or a manifest`,
    );
  }
  if (type && HTML_TYPES.has(type)) return { kind: "page", warning: null };
  const path = new URL(res.finalUrl).pathname.toLowerCase();
  const declaredJson = type !== null && JSON_TYPE.test(type);
  const maybeJson = declaredJson ||
    (UNTYPED.has(type) && (/\.jsonc?$/.test(path) || /^\s*\{/.test(res.text)));
  if (maybeJson) {
    let json: unknown;
    try {
      // deno.jsonc and friends: comments go (jsonc-parser, as repo-explainer reads them).
      json = JSON.parse(stripComments(res.text.replace(/^\uFEFF/, "")));
    } catch (err) {
      if (declaredJson || /\.jsonc?$/.test(path)) {
        const reason = err instanceof Error ? err.message : String(err);
        throw new ApiError("PARSE_ERROR", `Response is not valid JSON: ${reason}`.slice(0, 300));
      }
      json = undefined; // text/plain that only looked like JSON: read it as a page below
    }
    if (json !== undefined) {
      const format = manifestFormat(json, res.finalUrl);
      if (!format || !isObject(json)) {
        throw new ApiError(
          "PARSE_ERROR",
          "Response is JSON but not a package.json, deno.json or import map",
        );
      }
      return { kind: "manifest", format, json };
    }
  }
  if (UNTYPED.has(type)) {
    return {
      kind: "page",
      warning: `Content-Type is ${type ?? "missing"}, not text/html; parsed as HTML anyway`,
    };
  }
  throw new ApiError("PARSE_ERROR", `Response is ${type}: not an HTML page or a manifest`);
}
