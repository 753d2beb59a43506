/**
 * What to make of a fetched response: HTML goes to the extractor; images, video, audio, JSON
 * and plain text get an honest result of their kind; anything else (an archive, a PDF, bytes
 * that claim to be HTML but are binary) is 502 PARSE_ERROR rather than a page of garbage.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { emptyMetadata, extractMetadata } from "./extract.ts";
import { imageSize, sniffImage } from "./image_size.ts";
import type { PageMetadata } from "./schema.ts";

/** How a response body is treated. */
export type BodyKind = "html" | "image" | "video" | "audio" | "json" | "text" | "binary";

/** True when the first KiB holds a NUL byte: no text format, HTML included, has one. */
function looksBinary(body: Uint8Array): boolean {
  return body.subarray(0, 1024).includes(0);
}

/** Leading markup a browser's sniffer would call HTML (for bodies sent without a useful type). */
function looksHtml(body: Uint8Array): boolean {
  const head = new TextDecoder().decode(body.subarray(0, 512)).trimStart().toLowerCase();
  return /^(?:\ufeff)?<(?:!doctype html|html|head|body|meta|title|!--|script|link|div|p)[\s>]/.test(
    head,
  );
}

/**
 * Classifies a body by its declared media type, checked against its first bytes. `charset` is
 * the one the body decodes with: UTF-16 text is full of NULs without being binary.
 */
export function bodyKind(
  contentType: string | null,
  body: Uint8Array,
  charset = "utf-8",
): BodyKind {
  const type = contentType ?? "";
  const binary = !charset.startsWith("utf-16") && looksBinary(body);
  if (
    sniffImage(body) &&
    (!type || type.startsWith("image/") || type === "application/octet-stream" || binary)
  ) {
    return "image"; // the bytes are an image whatever the header says
  }
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  if (binary) return "binary";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (!type || type === "application/octet-stream") return looksHtml(body) ? "html" : "text";
  if (type.startsWith("text/") || type.endsWith("+xml") || type === "application/xml") {
    return "text";
  }
  return "binary";
}

/** The metadata of any response; throws PARSE_ERROR for what cannot be described. */
export function describeResponse(page: FetchResult): PageMetadata {
  const kind = bodyKind(page.contentType, page.body, page.charset);
  switch (kind) {
    case "html":
      try {
        return extractMetadata(page.text, page.finalUrl);
      } catch (err) {
        // htmlparser2 never throws on markup; this guards the extractor's own assumptions.
        const message = err instanceof Error ? err.message : String(err);
        throw new ApiError("PARSE_ERROR", `Could not extract metadata: ${message}`.slice(0, 300));
      }
    case "image": {
      const size = imageSize(page.body);
      return {
        ...emptyMetadata(page.finalUrl),
        type: "image",
        image: {
          url: page.finalUrl,
          width: size?.width ?? null,
          height: size?.height ?? null,
          alt: null,
        },
      };
    }
    case "binary":
      throw new ApiError(
        "PARSE_ERROR",
        `Not an HTML page: cannot extract metadata from ${
          page.contentType ?? "an untyped"
        } binary body`,
      );
    default:
      return { ...emptyMetadata(page.finalUrl), type: kind };
  }
}
