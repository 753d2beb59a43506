/**
 * `GET /read`: a fetched page as its article, in Markdown, plain text or sanitised HTML, with
 * what the page says about it (byline, site, language, date, excerpt). The article is found as
 * `/summary` finds the text it sends its model (readable.ts), on the browser's tree
 * (browser_tree.ts), which the sanitiser needs; Markdown is written by node-html-markdown (no
 * DOM needed, GitHub tables and fenced code built in) from the sanitised HTML (clean_html.ts).
 */
import render from "dom-serializer";
import type { AnyNode, Element } from "domhandler";
import { NodeHtmlMarkdown } from "node-html-markdown";
import type { YieldSoon } from "../../shared/contract/cooperative.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { documentBase } from "../../shared/net/html.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { articleMeta, firstParagraph } from "./article_meta.ts";
import { articleHtml, sanitize } from "./clean_html.ts";
import { descendants, isElement } from "./dom.ts";
import { bodyKind, plainText } from "./page_text.ts";
import { blockText, extractArticle } from "./readable.ts";
import { parseBrowserTree } from "./browser_tree.ts";
import { DEFAULT_TREE_LIMITS, readerYield, TreeLimitError, type TreeLimits } from "./tree.ts";

/** The formats `content` comes in. */
export const READ_FORMATS = ["markdown", "text", "html"] as const;
/** One of READ_FORMATS. */
export type ReadFormat = typeof READ_FORMATS[number];

/** The body of a 200 from `/read`. */
export interface ReadResult {
  url: string;
  finalUrl: string;
  title: string | null;
  byline: string | null;
  siteName: string | null;
  lang: string | null;
  publishedTime: string | null;
  excerpt: string | null;
  wordCount: number;
  format: ReadFormat;
  content: string;
}

const markdown = new NodeHtmlMarkdown({
  bulletMarker: "-",
  codeBlockStyle: "fenced",
  emDelimiter: "_",
  strongDelimiter: "**",
  // Links and images keep the absolute addresses the sanitiser wrote.
  keepDataImages: false,
  useLinkReferenceDefinitions: false,
  maxConsecutiveNewlines: 2,
  // The default pattern's "1. " branch is not anchored to the line start, so "in 2010. Later"
  // became "in 2010\\. Later"; anchored, only a line that would start a list is escaped.
  lineStartEscape: [/^(\s*?)(?:(\+\s|[=>-]|#{1,6}\s)|(\d+)(\.\s))/gm, "$1$3\\$2$4"],
});

/**
 * The article of a fetched page in `format`. A binary body is 502 PARSE_ERROR (no text to
 * read); so is a page over the reader's bounds (`limits`: nesting depth, nodes, time).
 */
export async function readArticle(
  requested: string,
  page: FetchResult,
  format: ReadFormat,
  limits: TreeLimits = DEFAULT_TREE_LIMITS,
): Promise<ReadResult> {
  const kind = bodyKind(page.contentType, page.body, page.charset);
  if (kind === "binary") {
    throw new ApiError(
      "PARSE_ERROR",
      `Cannot read ${page.contentType ?? "binary"} content: not HTML or text`,
    );
  }
  const fields = { url: requested, finalUrl: page.finalUrl, format };
  if (kind === "text") {
    const text = plainText(page.text);
    return {
      ...fields,
      title: null,
      byline: null,
      siteName: null,
      lang: null,
      publishedTime: null,
      excerpt: text.split("\n", 1)[0] || null,
      wordCount: words(text),
      content: format === "html" ? `<pre>${escapeHtml(text)}</pre>` : text,
    };
  }
  try {
    const yieldSoon = readerYield(limits.maxMs);
    const reparse = () => parseBrowserTree(page.text, limits, yieldSoon);
    const doc = await reparse();
    const meta = await articleMeta(doc, yieldSoon);
    // Relative addresses resolve as the browser would: against <base href>, else the page.
    const base = documentBase(doc, page.finalUrl);
    await yieldSoon();
    const { title, article, byline } = await extractArticle(
      doc,
      reparse,
      yieldSoon,
      page.finalUrl,
    );
    const text = article ? await blockText(article, yieldSoon) : "";
    let content = text;
    if (article && format !== "text") {
      await sanitize(article, base, yieldSoon);
      content = format === "html"
        ? await articleHtml(article, yieldSoon)
        : await articleMarkdown(article, yieldSoon);
    }
    return {
      ...fields,
      title,
      byline: meta.byline ?? byline,
      siteName: meta.siteName,
      lang: meta.lang,
      publishedTime: meta.publishedTime,
      excerpt: meta.excerpt ?? firstParagraph(article),
      wordCount: words(text),
      content,
    };
  } catch (err) {
    if (err instanceof TreeLimitError) throw new ApiError("PARSE_ERROR", err.message);
    throw err;
  }
}

/** Nodes of an article written to Markdown in one piece (every real page's article). */
const MARKDOWN_WHOLE = 5000;
/** Nodes of one piece when a larger article is written a piece at a time. */
const MARKDOWN_PIECE = 500;

/**
 * The sanitised article in Markdown. node-html-markdown's time grows with the square of its
 * output (8,000 images took ~4 s, held in one stretch), so an article of more than
 * MARKDOWN_WHOLE nodes is written in pieces of at most MARKDOWN_PIECE nodes with `yieldSoon`
 * between, joined by blank lines: a piece is a run of sibling subtrees, and a subtree too big
 * for one gives its children instead (their wrapper's own Markdown, a list's or a quote's
 * marks, is then lost: only pages far larger than any article write so).
 */
async function articleMarkdown(article: Element, yieldSoon: YieldSoon): Promise<string> {
  const all = descendants(article);
  if (all.length <= MARKDOWN_WHOLE) {
    return markdown.translate(await articleHtml(article, yieldSoon)).trim();
  }
  // Nodes in each element's subtree (itself included), bottom-up.
  const size = new Map<AnyNode, number>();
  for (let i = all.length - 1; i >= 0; i--) {
    let n = 1;
    for (const c of all[i].children) n += size.get(c) ?? 1;
    size.set(all[i], n);
  }
  const out: string[] = [];
  let piece: AnyNode[] = [];
  let pieceSize = 0;
  const write = async () => {
    const md = markdown.translate(render(piece, { encodeEntities: "utf8" })).trim();
    if (md !== "") out.push(md);
    piece = [];
    pieceSize = 0;
    await yieldSoon();
  };
  const stack = [...article.children].reverse(); // next in document order last
  while (stack.length > 0) {
    const n = stack.pop()!;
    const nodes = size.get(n) ?? 1;
    if (nodes > MARKDOWN_PIECE && isElement(n)) {
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]);
      continue;
    }
    if (pieceSize + nodes > MARKDOWN_PIECE) await write();
    piece.push(n);
    pieceSize += nodes;
  }
  if (piece.length > 0) await write();
  return out.join("\n\n");
}

function words(text: string): number {
  return text.match(/\S+/g)?.length ?? 0;
}

function escapeHtml(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
}

/** The reader's limits for a budget (tree.ts), for the app, which loads this module lazily. */
export { readerLimits } from "./tree.ts";
