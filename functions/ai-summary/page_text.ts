/**
 * From a fetched page to the title and body text that go to the model: HTML through the
 * readable pass, plain text (and JSON, XML, markdown...) as it is, binary refused.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import { parseHtml } from "../../shared/net/html.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { mainText, pageTitle } from "./readable.ts";

/** What a page gives the summary. */
export interface PageText {
  /** The page title; null when it has none (always null for plain text). */
  title: string | null;
  /** The readable body text, trimmed (not yet truncated). */
  text: string;
}

/** How a body is read. */
export type BodyKind = "html" | "text" | "binary";

const HTML_TYPES = new Set(["text/html", "application/xhtml+xml"]);
const TEXT_TYPES = new Set([
  "application/json",
  "application/xml",
  "application/javascript",
  "application/x-javascript",
  "application/ecmascript",
  "application/x-yaml",
  "application/yaml",
  "application/toml",
]);

/**
 * How to read a body: by its Content-Type, and when there is none, by sniffing (a NUL byte in
 * the first KiB means binary; a leading `<!doctype html`/`<html` means HTML).
 */
export function bodyKind(contentType: string | null, body: Uint8Array): BodyKind {
  if (contentType) {
    if (HTML_TYPES.has(contentType)) return "html";
    if (
      contentType.startsWith("text/") || TEXT_TYPES.has(contentType) ||
      contentType.endsWith("+json") || contentType.endsWith("+xml")
    ) return "text";
    return "binary";
  }
  const head = body.subarray(0, 1024);
  if (head.includes(0)) return "binary";
  const start = new TextDecoder().decode(head).trimStart().slice(0, 64).toLowerCase();
  return start.startsWith("<!doctype html") || start.startsWith("<html") ? "html" : "text";
}

/**
 * The title and body text of a fetched page. A binary body is 502 FETCH_OR_AI_ERROR: there is
 * no text to summarise.
 */
export function pageText(page: FetchResult): PageText {
  const kind = bodyKind(page.contentType, page.body);
  if (kind === "binary") {
    throw new ApiError(
      "FETCH_OR_AI_ERROR",
      `Cannot summarise ${page.contentType ?? "binary"} content: not HTML or text`,
    );
  }
  if (kind === "text") return { title: null, text: plainText(page.text) };
  const doc = parseHtml(page.text);
  return { title: pageTitle(doc), text: mainText(doc) };
}

/** Plain text with white space collapsed within lines and blank lines dropped. */
export function plainText(raw: string): string {
  return raw.replace(/^\uFEFF/, "").split(/\r?\n/).map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0).join("\n");
}
