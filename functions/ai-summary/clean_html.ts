/**
 * The article as HTML safe to show: a strict allow-list applied to the reader's own tree (the
 * one parse5 built as a browser would), then serialised by dom-serializer. Sanitising the tree
 * that was already parsed, rather than re-parsing a string with another parser (sanitize-html
 * reads with htmlparser2, which repairs markup differently from a browser), leaves no gap
 * between what was checked and what a browser will build, and costs one walk.
 *
 * Kept: text structure (headings, paragraphs, lists, quotes, code, tables, figures, inline
 * emphasis), links and images. Removed with their content: scripts, styles, embeds, forms and
 * anything not text. Unwrapped (content kept): every other element. Attributes: a short list
 * per element; `href`/`src` resolved against the page's address and kept only for http(s)
 * (and `mailto:` links), so no `javascript:`, `data:` or `vbscript:` URL and no event handler
 * survives. Lazy images get their real address (`data-src` and friends), as Readability does.
 */
import render from "dom-serializer";
import type { AnyNode, Element, ParentNode } from "domhandler";
import { hasAncestor, isElement, isTextNode, relinkChildren } from "./dom.ts";

/** Elements kept, each with the attributes it may keep. */
const ALLOWED: Record<string, readonly string[]> = {
  a: ["href", "title"],
  img: ["src", "alt", "title", "width", "height"],
  p: [],
  br: [],
  hr: [],
  h1: [],
  h2: [],
  h3: [],
  h4: [],
  h5: [],
  h6: [],
  ul: [],
  ol: ["start", "reversed"],
  li: [],
  dl: [],
  dt: [],
  dd: [],
  blockquote: ["cite"],
  q: ["cite"],
  pre: [],
  code: ["class"],
  kbd: [],
  samp: [],
  var: [],
  em: [],
  strong: [],
  b: [],
  i: [],
  u: [],
  s: [],
  del: [],
  ins: [],
  sub: [],
  sup: [],
  mark: [],
  small: [],
  abbr: ["title"],
  cite: [],
  time: ["datetime"],
  figure: [],
  figcaption: [],
  table: [],
  caption: [],
  thead: [],
  tbody: [],
  tfoot: [],
  tr: [],
  th: ["colspan", "rowspan", "scope"],
  td: ["colspan", "rowspan"],
  div: [],
  section: [],
  article: [],
  span: [],
};

/** Removed with everything inside: never article text, or active content. */
const REMOVED = new Set([
  "script",
  "noscript",
  "style",
  "template",
  "link",
  "meta",
  "base",
  "title",
  "head",
  "iframe",
  "frame",
  "frameset",
  "object",
  "embed",
  "applet",
  "svg",
  "math",
  "canvas",
  "video",
  "audio",
  "source",
  "track",
  "form",
  "input",
  "button",
  "select",
  "option",
  "textarea",
  "dialog",
  "portal",
  "slot",
]);
const URL_ATTRIBUTES = new Set(["href", "src", "cite"]);
const LAZY_SOURCES = ["data-src", "data-original", "data-lazy-src", "data-url", "data-srcset"];

/**
 * Sanitises `root` in place (see the module comment); `base` resolves relative addresses.
 * Returns the same node. Each child list is rebuilt in one pass (an unwrapped element's
 * children take its place), with `yieldSoon` every few hundred nodes: removing or unwrapping
 * nodes one by one costs a search and a splice each, quadratic in a list of 150,000.
 */
export async function sanitize<T extends AnyNode>(
  root: T,
  base: string | undefined,
  yieldSoon: () => Promise<void>,
): Promise<T> {
  const parents: ParentNode[] = isElement(root) ? [root] : [];
  let seen = 0;
  while (parents.length > 0) {
    const parent = parents.pop()!;
    // Source indentation is not text; inside <pre> it is.
    const inPre = isElement(parent) && parent.name === "pre" || hasAncestor(parent, "pre");
    const kept: AnyNode[] = [];
    const pending = [...parent.children].reverse(); // next in document order last
    while (pending.length > 0) {
      if ((++seen & 255) === 0) await yieldSoon();
      const n = pending.pop()!;
      if (isTextNode(n)) {
        if (!inPre) n.data = n.data.replace(/\s+/g, " ");
        kept.push(n);
        continue;
      }
      if (!isElement(n)) continue; // comments, processing instructions, doctypes
      const name = n.name.toLowerCase();
      if (REMOVED.has(name) || n.namespace && !n.namespace.endsWith("xhtml")) continue;
      const allowed = ALLOWED[name];
      if (!allowed) {
        for (let i = n.children.length - 1; i >= 0; i--) pending.push(n.children[i]);
        n.children = [];
        continue;
      }
      if (name === "img") lazySource(n);
      const attribs: Record<string, string> = {};
      for (const key of allowed) {
        const value = n.attribs[key];
        if (value === undefined) continue;
        if (URL_ATTRIBUTES.has(key)) {
          const url = safeUrl(value, base, key === "href");
          if (url) attribs[key] = url;
        } else if (key === "class") {
          // Only a code block's language survives (the Markdown fence uses it).
          const lang = value.match(/(?:^|\s)(lang(?:uage)?-[\w+#-]+)/)?.[1];
          if (lang) attribs.class = lang;
        } else attribs[key] = value;
      }
      n.attribs = attribs;
      if (name === "img" && !attribs.src) continue;
      kept.push(n);
      parents.push(n);
    }
    relinkChildren(parent, kept);
  }
  return root;
}

/**
 * The cleaned article as an HTML string, serialised a few hundred top-level nodes at a time
 * with `yieldSoon` between (dom-serializer joins the nodes' HTML: the same string).
 */
export async function articleHtml(root: Element, yieldSoon: () => Promise<void>): Promise<string> {
  const parts: string[] = [];
  for (let i = 0; i < root.children.length; i += 256) {
    parts.push(render(root.children.slice(i, i + 256), { encodeEntities: "utf8" }));
    await yieldSoon();
  }
  return parts.join("").trim();
}

/** An img whose `src` is missing or a placeholder takes the lazy-loading attribute's address. */
function lazySource(img: Element): void {
  const src = img.attribs.src ?? "";
  if (src !== "" && !src.startsWith("data:")) return;
  for (const key of LAZY_SOURCES) {
    const value = img.attribs[key]?.trim();
    if (value) {
      img.attribs.src = key === "data-srcset" ? value.split(/\s+/)[0] : value;
      return;
    }
  }
}

/** `value` resolved against `base`; null unless http(s) (or `mailto:` for a link). */
export function safeUrl(value: string, base: string | undefined, link: boolean): string | null {
  // Browsers ignore tabs and newlines inside a URL: "java\nscript:" is javascript:.
  const trimmed = value.replace(/[\t\n\r]/g, "").trim();
  if (trimmed.startsWith("#") && link) return trimmed;
  let url: URL;
  try {
    url = new URL(trimmed, base);
  } catch {
    return null;
  }
  if (url.protocol === "http:" || url.protocol === "https:") return url.href;
  if (link && url.protocol === "mailto:") return url.href;
  return null;
}
