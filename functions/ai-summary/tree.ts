/**
 * The reader's HTML tree for `/summary`, and the limits of every read. The shared lean parser
 * (shared/net/sliced_parse.ts: htmlparser2, the parser of the other page routes) builds a
 * domhandler tree, then `shapeBody` splits head and body as a browser does (the head's content
 * first, everything else in one `<body>`). On the 258 real pages of the reader bench the
 * text is the same as from parse5's browser tree on all but one (a credit line more), in half
 * the time; a fresh instance's first `/summary` is about 40 ms faster (bench/cold_path.ts).
 * `/read` returns the page's own HTML and keeps parse5's exact browser tree (browser_tree.ts):
 * a sanitiser must see the tree a browser will build. The parse is bounded: nesting depth,
 * node count and time; it is read in slices and yields to the event loop between them, so one
 * hostile page does not block other requests for long.
 */
import { type AnyNode, type Document, DomHandler, Element } from "domhandler";
import { cooperative, type YieldSoon } from "../../shared/contract/cooperative.ts";
import { parseInSlices } from "../../shared/net/sliced_parse.ts";
import { isElement, isTextNode, relinkChildren } from "./dom.ts";

/** Limits of one page's parse and read. */
export interface TreeLimits {
  /** Deepest element nesting accepted (browsers stop nesting at 512). */
  maxDepth: number;
  /** Most nodes (elements, texts, comments; adjacent text is one) accepted. */
  maxNodes: number;
  /** Milliseconds the parse and the read may take together. */
  maxMs: number;
}

/**
 * The reader's default limits: far above real pages (the corpus: depth < 120, nodes < 10k).
 * Texts count: 150,000 `<p>a</p>` are 300,000 nodes, a page the reader must still read.
 */
export const DEFAULT_TREE_LIMITS: TreeLimits = { maxDepth: 1024, maxNodes: 600_000, maxMs: 3000 };

/** The reader's limits with a time budget of `maxMs` (the default one when undefined). */
export function readerLimits(maxMs?: number): TreeLimits {
  return maxMs === undefined ? DEFAULT_TREE_LIMITS : { ...DEFAULT_TREE_LIMITS, maxMs };
}

/**
 * Characters the parser reads between two checks of the yield: the yield pauses once a time
 * slice has passed, and this much of the densest markup (a 150,000-`<img>` page) parses in a
 * few ms.
 */
export const SLICE_CHARS = 16 * 1024;

/** A page over one of the limits; the message says which. */
export class TreeLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TreeLimitError";
  }
}

/** The error of a page over `limits`' depth or node bound. */
export function overLimit(limit: "maxDepth" | "maxNodes", limits: TreeLimits): TreeLimitError {
  return new TreeLimitError(
    limit === "maxDepth"
      ? `Page nested too deeply to read: over ${limits.maxDepth} levels`
      : `Page too large to read: over ${limits.maxNodes} nodes`,
  );
}

/**
 * The read's cooperative yield (shared/contract/cooperative.ts): it pauses once a 25 ms slice
 * has passed, letting other requests run, and throws TreeLimitError once the page has had
 * `maxMs` of its own work. The time spent paused is not counted, so pages read side by side
 * (up to the admission limit) do not run out of time because of each other.
 */
export function readerYield(maxMs: number = DEFAULT_TREE_LIMITS.maxMs): YieldSoon {
  return cooperative(25, {
    endsAt: performance.now() + maxMs,
    over: () => new TreeLimitError(`Page too complex to read: took over ${maxMs} ms`),
    ownTimeOnly: true,
  });
}

/**
 * Parses `html` into a domhandler Document shaped as a browser's (`shapeBody`), read in slices
 * with `yieldSoon` between them. Throws TreeLimitError when the page nests deeper than
 * `maxDepth`, has more than `maxNodes` nodes or takes longer than `yieldSoon`'s budget.
 */
export async function parseTree(
  html: string,
  limits: TreeLimits = DEFAULT_TREE_LIMITS,
  yieldSoon: YieldSoon = readerYield(limits.maxMs),
): Promise<Document> {
  const handler = new DomHandler(null, { withStartIndices: false, withEndIndices: false });
  const bounds = {
    maxDepth: limits.maxDepth,
    maxNodes: limits.maxNodes,
    refuse(limit: "maxDepth" | "maxNodes"): never {
      throw overLimit(limit, limits);
    },
  };
  await parseInSlices(html, handler, bounds, SLICE_CHARS, yieldSoon);
  await yieldSoon();
  shapeBody(handler.root);
  return handler.root;
}

const named = (name: string) => (n: AnyNode): n is Element => isElement(n) && n.name === name;
const isBlank = (n: AnyNode) => isTextNode(n) && n.data.trim() === "";
/** White space and comments: they stay where they are in a page already in shape. */
const isQuiet = (n: AnyNode) => isBlank(n) || n.type === "comment";
/** What a browser keeps in `<head>` (the HTML standard's "in head" start tags). */
const HEAD_CONTENT = new Set([
  "base",
  "basefont",
  "bgsound",
  "link",
  "meta",
  "noframes",
  "noscript",
  "script",
  "style",
  "template",
  "title",
]);
const isHeadContent = (n: AnyNode) => isQuiet(n) || (isElement(n) && HEAD_CONTENT.has(n.name));

/**
 * Gives a tree as htmlparser2 builds it (nodes where the markup puts them) the shape a browser
 * gives it: one `<html>` holding one `<head>` and one `<body>`. A browser keeps in the head the
 * head content (`<title>`, `<meta>`, `<script>`...) that comes before anything else, and reads
 * everything from the first other node on into the body, in document order: an unclosed
 * `<head>`'s content, what comes before `<html>` or `<body>`, after a stray `</body>` or
 * `</html>`, and pages with no `<head>`, `<body>` or `<html>` at all. htmlparser2 leaves such
 * nodes in the head, beside the body or at the top. A page already in that shape (most) is
 * left as it is; any other is rebuilt in one pass over the top three levels.
 */
export function shapeBody(doc: Document): void {
  const html = doc.children.find(named("html"));
  if (html && inShape(doc, html)) return;
  const headNodes: AnyNode[] = [];
  const bodyNodes: AnyNode[] = [];
  let head: Element | undefined;
  let body: Element | undefined;
  /** The body has begun: its element was met, or a node that opens it. */
  const inBody = () => body !== undefined || bodyNodes.length > 0;
  const place = (n: AnyNode) => {
    if (!inBody() && isHeadContent(n)) headNodes.push(n);
    else bodyNodes.push(n);
  };
  const visit = (n: AnyNode) => {
    if (!isElement(n)) place(n);
    else if (n.name === "head" && head === undefined && !inBody()) {
      head = n;
      n.children.forEach(place);
    } else if (n.name === "body" && body === undefined) {
      body = n;
      // No spread: a body of 150,000 children would overflow the call's arguments.
      for (let i = 0; i < n.children.length; i++) bodyNodes.push(n.children[i]);
    } else if (n.name === "head") n.children.forEach(place); // in the body: its content is body's
    else place(n);
  };
  const top = doc.children.filter((n) => n.type === "directive");
  for (const n of doc.children) {
    if (n === html) html.children.forEach(visit);
    else if (n.type !== "directive") visit(n);
  }
  head ??= new Element("head", {}, []);
  body ??= new Element("body", {}, []);
  const root = html ?? new Element("html", {}, []);
  relinkChildren(head, headNodes);
  relinkChildren(body, bodyNodes);
  relinkChildren(root, [head, body]);
  relinkChildren(doc, [...top, root]);
}

/**
 * True when `html` is the page's one top-level node besides the doctype, white space and
 * comments, and holds (besides those) an optional `<head>` of head content, then a `<body>`.
 */
function inShape(doc: Document, html: Element): boolean {
  if (!doc.children.every((n) => n === html || n.type === "directive" || isQuiet(n))) return false;
  let head = false;
  let body = false;
  for (const n of html.children) {
    if (isQuiet(n)) continue;
    if (!head && !body && isElement(n) && n.name === "head" && n.children.every(isHeadContent)) {
      head = true;
    } else if (!body && isElement(n) && n.name === "body") body = true;
    else return false;
  }
  return body;
}

/** The `<body>` of a parsed tree (both parsers make one), else the first `<html>`. */
export function bodyOf(doc: Document): Element | null {
  const html = doc.children.find(named("html"));
  if (!html) return null;
  return html.children.find(named("body")) ?? html;
}
