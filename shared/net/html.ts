/**
 * The page routes' HTML module. htmlparser2 builds the tree (2.2x faster than linkedom and
 * 2.8x faster than parse5 on a 387 KiB real page: see README, `bench/html_parsers.ts`), or
 * streams its events to a handler for a pass that needs no tree; css-select queries it,
 * domutils reads text. The parse itself is sliced_parse.ts's, which `/summary`'s reader also
 * runs directly (without css-select); only `/read` parses otherwise (parse5: its sanitiser
 * needs a browser's exact tree).
 */
import type { AnyNode, Document, Element, ParentNode } from "domhandler";
import { selectAll, selectOne } from "css-select";
import { DomHandler, isTag, isText } from "domhandler";
import { cooperative } from "../contract/cooperative.ts";
import { ApiError, type ErrorCode } from "../contract/errors.ts";
import { type InterestedHandler, LeanParser, type ParseBounds } from "./lean_parser.ts";
import { parseInSlices, PARSER_OPTIONS } from "./sliced_parse.ts";
import { BLOCKS } from "./blocks.ts";

export type { AnyNode, Document, Element };
export { BLOCKS };

/**
 * What a streaming parse calls: any of htmlparser2's parser callbacks, and what it reads when
 * not everything (`interest`: lean_parser.ts `ParseInterest`).
 */
export type StreamHandler = InterestedHandler;

/** Parses HTML leniently (as browsers do: never throws on bad markup); entities are decoded. */
export function parseHtml(html: string): Document {
  const handler = new DomHandler();
  new LeanParser(handler, PARSER_OPTIONS).end(html);
  return handler.root;
}

export { PARSER_OPTIONS };

/** Bounds on one parse: a page over any of them is refused, not parsed. */
export interface ParseLimits {
  /** Deepest element nesting (unclosed `<div>`s nest without end). */
  maxDepth: number;
  /** Most nodes (elements, texts, comments) in the tree. */
  maxNodes: number;
  /** Most wall-clock time for the parse, pauses for other requests included. */
  maxMillis: number;
  /**
   * Characters parsed between two checks of the time bound and of whether to pause (letting
   * other requests run: once the cooperative slice has passed).
   */
  sliceChars: number;
}

/**
 * The bounds `/analyze` and `/inspect` parse under. Real pages nest well under 100 levels
 * (browsers themselves stop nesting at 512), a 5 MiB page holds about 150k nodes and parses in
 * well under a second; the time bound is for a machine under load.
 */
export const DEFAULT_PARSE_LIMITS: Readonly<ParseLimits> = {
  maxDepth: 1024,
  maxNodes: 300_000,
  maxMillis: 10_000,
  sliceChars: 32 * 1024,
};

/** A page over one of the parse limits; `message` says which, for the caller's 502. */
export class HtmlLimitError extends Error {
  /** Which limit was passed. */
  readonly limit: keyof ParseLimits;
  constructor(limit: keyof ParseLimits, message: string) {
    super(message);
    this.name = "HtmlLimitError";
    this.limit = limit;
  }
}

/**
 * The depth and node bounds of `limits` for the parser, which counts nodes as domhandler builds
 * them (adjacent text is one node), so a streaming pass and a tree are bounded alike.
 */
export function parseBounds(limits: ParseLimits): ParseBounds {
  return {
    maxDepth: limits.maxDepth,
    maxNodes: limits.maxNodes,
    refuse(limit): never {
      throw limit === "maxDepth"
        ? new HtmlLimitError(
          "maxDepth",
          `Page nests elements deeper than ${limits.maxDepth} levels`,
        )
        : new HtmlLimitError("maxNodes", `Page has more than ${limits.maxNodes} nodes`);
    },
  };
}

// The shared cooperative yield lives in the contract layer (link-shortener's QR PNG uses it
// without loading a parser); page routes import it from here as before.
export { type Budget, cooperative, pause } from "../contract/cooperative.ts";

/**
 * Parses HTML like `parseHtml` within `limits`, without building a tree: `handler` hears
 * htmlparser2's events (tags with their attributes, text, comments) as the parse goes. The
 * parse pauses (every `sliceChars` characters it checks whether the cooperative slice is
 * due), so other requests are served meanwhile, and a page nested too deep, with too many
 * nodes or taking too long is refused with an `HtmlLimitError` as soon as it passes the
 * bound. For a pass that only gathers a few elements: no tree of the whole page is allocated.
 */
export async function streamHtmlBounded(
  html: string,
  handler: StreamHandler,
  limits: Partial<ParseLimits> = {},
): Promise<void> {
  const bounds = { ...DEFAULT_PARSE_LIMITS, ...limits };
  // Wall-clock time, pauses included: the yield stops the parse at the first slice past it.
  const yieldSoon = cooperative(undefined, {
    endsAt: performance.now() + bounds.maxMillis,
    over: () =>
      new HtmlLimitError("maxMillis", `Page took longer than ${bounds.maxMillis} ms to parse`),
  });
  await parseInSlices(html, handler, parseBounds(bounds), bounds.sliceChars, yieldSoon);
}

/**
 * `streamHtmlBounded` building the tree: the same document as `parseHtml`, at most
 * `maxDepth` deep, so walks of it stay bounded.
 */
export async function parseHtmlBounded(
  html: string,
  limits: Partial<ParseLimits> = {},
): Promise<Document> {
  const handler = new DomHandler(null, { withStartIndices: false, withEndIndices: false });
  await streamHtmlBounded(html, handler, limits);
  return handler.root;
}

/**
 * `parseHtmlBounded` for a route that needs the tree (`/metadata`): a page over a limit
 * becomes the route's 502 (`PARSE_ERROR`) with the limit's message.
 */
export function parsePage(
  html: string,
  code: ErrorCode = "PARSE_ERROR",
  limits: Partial<ParseLimits> = {},
): Promise<Document> {
  return asRouteError(code, () => parseHtmlBounded(html, limits));
}

/** `streamHtmlBounded` for a route, a page over a limit being a 502 as in `parsePage`. */
export function streamPage(
  html: string,
  handler: StreamHandler,
  code: ErrorCode = "PARSE_ERROR",
  limits: Partial<ParseLimits> = {},
): Promise<void> {
  return asRouteError(code, () => streamHtmlBounded(html, handler, limits));
}

async function asRouteError<T>(code: ErrorCode, parse: () => Promise<T>): Promise<T> {
  try {
    return await parse();
  } catch (err) {
    if (err instanceof HtmlLimitError) throw new ApiError(code, err.message);
    throw err;
  }
}

/**
 * Visits every node under `root` in document order, iteratively (no recursion, so no depth
 * can overflow the stack). `visit` returning `false` skips that node's children.
 */
export function walk(root: AnyNode, visit: (node: AnyNode) => boolean | void): void {
  const stack: AnyNode[] = [root];
  while (stack.length > 0) {
    const node = stack.pop()!;
    if (visit(node) === false) continue;
    const children = (node as ParentNode).children;
    if (children) { for (let i = children.length - 1; i >= 0; i--) stack.push(children[i]); }
  }
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
export function attr(
  el: Pick<Element, "attribs"> | null | undefined,
  name: string,
): string | null {
  return el ? attribute(el.attribs, name) : null;
}

/** `attr` of an element's attributes as a streaming parse hears them (no element built). */
export function attribute(attribs: Record<string, string>, name: string): string | null {
  const value = attribs[name]?.trim();
  return value ? value : null;
}

/** Collapses runs of white space to one space and trims. */
export function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** Elements whose text is never readable content. */
const NON_CONTENT = new Set(["script", "style", "noscript", "template", "svg", "iframe", "head"]);

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
  const value = href.trim();
  const prefix = originPrefix(base);
  // Most hrefs are already what URL parsing would give, or a path on the base's host: said
  // without parsing (URL parsing was a seventh of /metadata's time on a page of tags).
  if (prefix !== null && !DOT_SEGMENT.test(value)) {
    if (CANONICAL_ABSOLUTE.test(value)) return value;
    if (ROOT_PATH.test(value)) return prefix + value;
  }
  try {
    return new URL(value, base).href;
  } catch {
    return null;
  }
}

/**
 * An http(s) URL that URL parsing leaves exactly as written: lowercase scheme and host (ASCII
 * labels, the last one starting with a letter, so never an IPv4 address; no `xn--` label,
 * which is checked), no port, user or fragment, a path and query of characters that are never
 * percent-encoded or changed (no `\`, tab or newline). Dot segments are ruled out apart.
 */
const CANONICAL_ABSOLUTE =
  /^https?:\/\/(?![^/]*xn--)(?:[a-z0-9-]+\.)*[a-z][a-z0-9-]*\/[\w\-.~!$&'()*+,;=:@/%]*(?:\?[\w\-.~!$&()*+,;=:@/?%]*)?$/;
/** A path on the base's host (`/a/b?c`), of the same characters. */
const ROOT_PATH = /^\/(?![/\\])[\w\-.~!$&'()*+,;=:@/%]*(?:\?[\w\-.~!$&()*+,;=:@/?%]*)?$/;
/** A `.` or `..` path segment, also percent-encoded, which URL parsing removes. */
const DOT_SEGMENT = /\/(?:\.|%2e){1,2}(?:[/?#]|$)/i;

/** `scheme://host[:port]` of http(s) bases (with any user), by base; null for other bases. */
const prefixes = new Map<string, string | null>();

function originPrefix(base: string): string | null {
  let prefix = prefixes.get(base);
  if (prefix !== undefined) return prefix;
  prefix = null;
  try {
    const u = new URL(base);
    if (u.protocol === "http:" || u.protocol === "https:") {
      const user = u.username ? `${u.username}${u.password ? `:${u.password}` : ""}@` : "";
      prefix = `${u.protocol}//${user}${u.host}`;
    }
  } catch {
    // not a base: every href goes to the URL parser, which refuses it
  }
  if (prefixes.size >= 64) prefixes.clear(); // a few bases per request; bounded
  prefixes.set(base, prefix);
  return prefix;
}
