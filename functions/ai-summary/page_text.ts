/**
 * From a fetched page to the title and body text that go to the model: HTML through the
 * readable pass, plain text (and JSON, XML, markdown...) as it is, binary refused.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { sniffKind } from "../../shared/net/sniff.ts";
import { readPage } from "./readable.ts";
import { DEFAULT_TREE_LIMITS, TreeLimitError, type TreeLimits } from "./tree.ts";

/** What a page gives the summary. */
export interface PageText {
  /** The page title; null when it has none (always null for plain text). */
  title: string | null;
  /** The readable body text, trimmed (not yet truncated). */
  text: string;
}

/** How a body is read. */
export type BodyKind = "html" | "text" | "binary";

/** How to read a body: HTML, text (JSON, XML, markdown... as they are), or binary (refused). */
export function bodyKind(contentType: string | null, body: Uint8Array, charset?: string): BodyKind {
  const kind = sniffKind(contentType, body, charset);
  if (kind === "html") return "html";
  return kind === "text" || kind === "json" ? "text" : "binary";
}

/**
 * The title and body text of a fetched page. A binary body is 502 FETCH_OR_AI_ERROR: there is
 * no text to summarise; so is a page over the reader's `limits` (nesting depth, nodes, time).
 */
export async function pageText(
  page: FetchResult,
  limits: TreeLimits = DEFAULT_TREE_LIMITS,
): Promise<PageText> {
  const kind = bodyKind(page.contentType, page.body, page.charset);
  if (kind === "binary") {
    throw new ApiError(
      "FETCH_OR_AI_ERROR",
      `Cannot summarise ${page.contentType ?? "binary"} content: not HTML or text`,
    );
  }
  if (kind === "text") return { title: null, text: plainText(page.text) };
  try {
    return await readPage(page.text, { url: page.finalUrl, limits });
  } catch (err) {
    if (err instanceof TreeLimitError) throw new ApiError("FETCH_OR_AI_ERROR", err.message);
    throw err;
  }
}

/** Plain text with white space collapsed within lines and blank lines dropped. */
export function plainText(raw: string): string {
  return raw.replace(/^\uFEFF/, "").split(/\r?\n/).map((line) => line.replace(/\s+/g, " ").trim())
    .filter((line) => line.length > 0).join("\n");
}

/** The reader's limits for a budget (tree.ts), for the app, which loads this module lazily. */
export { readerLimits } from "./tree.ts";
