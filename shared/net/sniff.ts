/**
 * What a fetched body is, from its declared media type checked against its first bytes (as a
 * browser's sniffer does), so a PNG served as text/html is not read as a page and a page sent
 * untyped still is. The one sniffer of the project: every experiment that reads a fetched body
 * classifies it here and maps the kinds to its own answer.
 */

/** How a body is treated. */
export type SniffedKind = "html" | "json" | "text" | "image" | "video" | "audio" | "binary";

/** An image format its magic bytes name. */
export type ImageFormat = "png" | "gif" | "jpeg" | "webp" | "ico";

/** The image format the first bytes name, or null. */
export function sniffImage(b: Uint8Array): ImageFormat | null {
  if (b[0] === 0x89 && b[1] === 0x50 && b[2] === 0x4e && b[3] === 0x47) return "png";
  if (b[0] === 0x47 && b[1] === 0x49 && b[2] === 0x46 && b[3] === 0x38) return "gif";
  if (b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return "jpeg";
  if (ascii(b, 0, 4) === "RIFF" && ascii(b, 8, 12) === "WEBP") return "webp";
  if (b[0] === 0x00 && b[1] === 0x00 && b[2] === 0x01 && b[3] === 0x00) return "ico";
  return null;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

/** A NUL in the first KiB: no text format has one, unless the text is UTF-16. */
export function looksBinary(body: Uint8Array, charset = "utf-8"): boolean {
  return !charset.toLowerCase().startsWith("utf-16") && body.subarray(0, 1024).includes(0);
}

/** Leading markup a browser's sniffer would take for HTML. */
export function looksLikeHtml(body: Uint8Array): boolean {
  const head = new TextDecoder().decode(body.subarray(0, 512)).replace(/^\ufeff/, "").trimStart();
  return /^<(?:!doctype html|html|head|body|meta|title|!--|script|link|div|p)[\s>]/i.test(head);
}

/** Types whose bodies are text although they are not `text/*`. */
const TEXT_TYPES = new Set([
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
]);

/**
 * Classifies a body. `contentType` is the bare media type (no parameters), `charset` the one
 * the body decodes with. The bytes win where they contradict the type: image magic is an
 * image whatever the header says (when the body is binary or untyped), NULs are binary.
 * Untyped bodies (and `application/octet-stream`) are HTML when they start like HTML.
 */
export function sniffKind(
  contentType: string | null,
  body: Uint8Array,
  charset = "utf-8",
): SniffedKind {
  const type = contentType ?? "";
  const binary = looksBinary(body, charset);
  const image = sniffImage(body) !== null;
  if (image && (binary || !type || type === "application/octet-stream")) return "image";
  if (type.startsWith("image/")) return "image";
  if (type.startsWith("video/")) return "video";
  if (type.startsWith("audio/")) return "audio";
  if (binary) return "binary";
  if (type === "text/html" || type === "application/xhtml+xml") return "html";
  if (type === "application/json" || type === "text/json" || type.endsWith("+json")) return "json";
  if (!type || type === "application/octet-stream") return looksLikeHtml(body) ? "html" : "text";
  if (type.startsWith("text/") || type.endsWith("+xml") || TEXT_TYPES.has(type)) return "text";
  return "binary";
}
