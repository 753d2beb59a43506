/**
 * A light Readability-style pass over a parsed page: the page title, and the main readable
 * text with boilerplate (scripts, navigation, headers, footers, asides, forms, hidden and
 * clearly non-content blocks) left out. `<main>` or a single `<article>` is preferred when it
 * holds a fair share of the page's text.
 */
import { isTag, isText } from "domhandler";
import {
  type AnyNode,
  attr,
  BLOCKS,
  collapse,
  type Document,
  type Element,
  select,
  selectFirst,
  text,
} from "../../shared/net/html.ts";

/** Elements never read: code, media, page chrome and controls. */
export const SKIPPED_TAGS: ReadonlySet<string> = new Set([
  "script",
  "style",
  "noscript",
  "template",
  "svg",
  "canvas",
  "iframe",
  "object",
  "embed",
  "audio",
  "video",
  "head",
  "nav",
  "header",
  "footer",
  "aside",
  "form",
  "button",
  "select",
  "textarea",
  "input",
  "dialog",
  "menu",
]);

/** ARIA roles of page chrome rather than content. */
const SKIPPED_ROLES = new Set([
  "navigation",
  "banner",
  "contentinfo",
  "complementary",
  "search",
  "dialog",
  "alertdialog",
  "menu",
  "menubar",
  "toolbar",
]);

/** Words in a class or id that mark boilerplate (after Readability's "unlikely candidates")... */
const UNLIKELY = new Set([
  "ad",
  "ads",
  "advert",
  "banner",
  "breadcrumb",
  "breadcrumbs",
  "comment",
  "comments",
  "consent",
  "cookie",
  "cookies",
  "gdpr",
  "menu",
  "newsletter",
  "popup",
  "promo",
  "related",
  "share",
  "sidebar",
  "social",
  "sponsor",
]);

/** ...unless another word says the block is content after all. */
const LIKELY = new Set(["article", "body", "content", "main", "post", "entry", "story", "text"]);

/** Share of the page's readable text a `<main>`/`<article>` must hold to be preferred. */
export const MIN_ROOT_SHARE = 0.25;

/** The page title: the first `<title>` outside SVG, white space collapsed; null when absent or empty. */
export function pageTitle(doc: Document): string | null {
  const title = select(doc, "title").find((el) => !hasAncestor(el, "svg"));
  const value = title ? text(title) : "";
  return value ? value : null;
}

/**
 * The main readable text of a page, one line per block, white space collapsed within lines.
 * Empty when the page has no readable text.
 */
export function mainText(doc: Document): string {
  const body = selectFirst(doc, "body") ?? doc;
  const whole = blockText(body);
  const root = contentRoot(doc);
  if (root) {
    const preferred = blockText(root);
    if (preferred.length >= whole.length * MIN_ROOT_SHARE) return preferred;
  }
  return whole;
}

/** `<main>` (or `role="main"`, the longest if several), else the page's only `<article>`. */
function contentRoot(doc: Document): Element | null {
  const mains = select(doc, "main, [role=main]").filter((el) => !isBoilerplate(el));
  if (mains.length > 0) {
    return mains.reduce((best, el) => (blockText(el).length > blockText(best).length ? el : best));
  }
  const articles = select(doc, "article").filter((el) => !isBoilerplate(el));
  return articles.length === 1 ? articles[0] : null; // several articles: a listing, read it all
}

/** True for an element that is page chrome, hidden, or named like boilerplate. */
function isBoilerplate(el: Element): boolean {
  if (SKIPPED_TAGS.has(el.name)) return true;
  if (el.attribs.hidden !== undefined || attr(el, "aria-hidden") === "true") return true;
  const role = attr(el, "role");
  if (role && SKIPPED_ROLES.has(role.toLowerCase())) return true;
  const style = attr(el, "style")?.toLowerCase().replace(/\s+/g, "") ?? "";
  if (style.includes("display:none") || style.includes("visibility:hidden")) return true;
  if (el.name === "body" || el.name === "html" || el.name === "main") return false;
  const words = `${el.attribs.class ?? ""} ${el.attribs.id ?? ""}`.toLowerCase().split(/[^a-z]+/);
  return words.some((w) => UNLIKELY.has(w)) && !words.some((w) => LIKELY.has(w));
}

/** Text under `root` with boilerplate left out and a line break around every block. */
function blockText(root: AnyNode): string {
  const parts: string[] = [];
  const walk = (node: AnyNode) => {
    // Source line breaks inside a text are just spaces; only blocks break lines.
    if (isText(node)) parts.push(node.data.replace(/\s+/g, " "));
    else if (isTag(node)) {
      if (node !== root && isBoilerplate(node)) return;
      const block = BLOCKS.has(node.name);
      if (block) parts.push("\n");
      for (const child of node.children) walk(child);
      if (block) parts.push("\n");
    } else if ("children" in node) {
      for (const child of (node as { children: AnyNode[] }).children) walk(child);
    }
  };
  walk(root);
  return parts.join("").split("\n").map(collapse).filter((line) => line.length > 0).join("\n");
}

function hasAncestor(el: Element, name: string): boolean {
  for (let p = el.parent; p; p = p.parent) if (isTag(p) && p.name === name) return true;
  return false;
}
