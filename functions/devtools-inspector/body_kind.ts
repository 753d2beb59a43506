/**
 * What a response body is, from its declared media type checked against its first bytes, so a
 * PNG served as text/html is not counted as a page and a page sent untyped still is.
 */
import type { BodyKind } from "./schema.ts";

/** Magic numbers of the image formats browsers show. */
const IMAGE_MAGIC: readonly number[][] = [
  [0x89, 0x50, 0x4e, 0x47], // PNG
  [0xff, 0xd8, 0xff], // JPEG
  [0x47, 0x49, 0x46, 0x38], // GIF8
  [0x00, 0x00, 0x01, 0x00], // ICO
];

function startsWith(body: Uint8Array, magic: readonly number[]): boolean {
  return magic.every((b, i) => body[i] === b);
}

/** True for bytes that begin like an image. */
export function looksLikeImage(body: Uint8Array): boolean {
  if (IMAGE_MAGIC.some((m) => startsWith(body, m))) return true;
  const ascii = new TextDecoder("latin1").decode(body.subarray(0, 12));
  return ascii.startsWith("RIFF") && ascii.slice(8, 12) === "WEBP";
}

/** A NUL in the first KiB: no text format has one (UTF-16 aside, see `bodyKind`). */
function looksBinary(body: Uint8Array): boolean {
  return body.subarray(0, 1024).includes(0);
}

/** Leading markup that a browser's sniffer would take for HTML. */
function looksLikeHtml(body: Uint8Array): boolean {
  const head = new TextDecoder().decode(body.subarray(0, 512)).replace(/^\ufeff/, "").trimStart();
  return /^<(?:!doctype html|html|head|body|meta|title|!--|script|link|div|p)[\s>]/i.test(head);
}

/** Classifies a body; `charset` is the one it decodes with (UTF-16 text is full of NULs). */
export function bodyKind(contentType: string | null, body: Uint8Array, charset: string): BodyKind {
  if (body.length === 0) return "empty";
  const type = contentType ?? "";
  const binary = !charset.startsWith("utf-16") && looksBinary(body);
  if (type.startsWith("image/") || (looksLikeImage(body) && (binary || !type))) return "image";
  if (type.startsWith("video/") || type.startsWith("audio/")) return "media";
  if (binary) return "binary";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type.endsWith("+json")) return "json";
  if (!type || type === "application/octet-stream") return looksLikeHtml(body) ? "html" : "text";
  if (
    type.startsWith("text/") || type.endsWith("+xml") || type === "application/xml" ||
    type === "application/javascript"
  ) {
    return "text";
  }
  return "binary";
}
