/**
 * The one HTML parsing module. htmlparser2 builds the tree (2.2x faster than linkedom and
 * 2.8x faster than parse5 on a 387 KiB real page: see README, `bench/html_parsers.ts`),
 * css-select queries it, domutils reads text. Experiments use only these functions.
 */
import { parseDocument } from "htmlparser2";
import type { AnyNode, Document, Element, ParentNode } from "domhandler";
import { selectAll, selectOne } from "css-select";
import { isTag, isText } from "domhandler";

export type { AnyNode, Document, Element };

/** Parses HTML leniently (as browsers do: never throws on bad markup); entities are decoded. */
export function parseHtml(html: string): Document {
  return parseDocument(html, { decodeEntities: true, lowerCaseAttributeNames: true });
}

/** Every element under `root` that matches a CSS selector, in document order. */
export function select(root: AnyNode | AnyNode[], selector: string): Element[] {
  return selectAll(selector, root);
}

/** The first element under `root` that matches a CSS selector, or null. */
export function selectFirst(root: AnyNode | AnyNode[], selector: string): Element | null {
  return selectOne(selector, root);
}

/** An attribute's value, trimmed; null when absent or empty. */
export function attr(el: Element | null | undefined, name: string): string | null {
  const value = el?.attribs[name]?.trim();
  return value ? value : null;
}

/** Collapses runs of white space to one space and trims. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Elements whose text is never readable content. */
const NON_CONTENT = new Set(["script", "style", "noscript", "template", "svg", "iframe", "head"]);

/** Elements that break a line: their text is kept apart from their neighbours'. */
export const BLOCKS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "option",
  "p",
  "pre",
  "section",
  "table",
  "td",
  "th",
  "title",
  "tr",
  "ul",
]);

/** Text under `node`, inline elements joined as written, blocks apart; `skip` tags left out. */
function collectText(node: AnyNode, skip: ReadonlySet<string>): string {
  const parts: string[] = [];
  const walk = (n: AnyNode) => {
    if (isText(n)) parts.push(n.data);
    else if (isTag(n)) {
      if (skip.has(n.name)) return;
      const block = BLOCKS.has(n.name);
      if (block) parts.push(" ");
      for (const c of n.children) walk(c);
      if (block) parts.push(" ");
    } else if (n.type === "root") { for (const c of (n as ParentNode).children) walk(c); }
  };
  walk(node);
  return collapse(parts.join(""));
}

const NOTHING = new Set<string>();

/** The text under a node (scripts and styles included, as `textContent`), white space collapsed. */
export function text(node: AnyNode | null | undefined): string {
  return node ? collectText(node, NOTHING) : "";
}

/**
 * The readable text of a document: text under `<body>` (or the whole document), skipping
 * non-content elements and any tag in `skip` (e.g. nav, footer).
 */
export function readableText(doc: Document, skip: readonly string[] = []): string {
  return collectText(selectFirst(doc, "body") ?? doc, new Set([...NON_CONTENT, ...skip]));
}

/** The base URL of a document: `<base href>` resolved against the final URL, else the final URL. */
export function documentBase(doc: Document, finalUrl: string): string {
  const href = attr(selectFirst(doc, "base[href]"), "href");
  return (href && resolveUrl(href, finalUrl)) || finalUrl;
}

/** An absolute URL for `href` against `base`; null when it cannot be resolved. */
export function resolveUrl(href: string | null | undefined, base: string): string | null {
  if (!href) return null;
  try {
    return new URL(href.trim(), base).href;
  } catch {
    return null;
  }
}
