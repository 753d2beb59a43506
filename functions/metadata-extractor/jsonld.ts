/**
 * JSON-LD: parses each `<script type="application/ld+json">` block on its own (a broken block
 * is skipped with a warning, never fatal), makes relative URLs absolute, flattens `@graph`
 * and follows `{"@id": ...}` references, so fields can ask "the first node with a headline".
 */
import { decodeHTML } from "entities";
import { resolveUrl } from "../../shared/net/html.ts";
import { cooperative, type YieldSoon } from "../../shared/contract/cooperative.ts";

/** A JSON-LD node (an object). */
export type LdNode = Record<string, unknown>;

/** The parsed JSON-LD of a page. */
export interface JsonLd {
  /** Every block that parsed, in document order, with relative URLs made absolute. */
  blocks: unknown[];
  /** Top-level nodes of every block, `@graph` members included, in document order. */
  nodes: LdNode[];
  /** Nodes by `@id`, so references resolve. */
  byId: Map<string, LdNode>;
  /** One line per skipped block. */
  warnings: string[];
}

/**
 * Keys whose string values are IRIs in schema.org's context, so a relative value resolves
 * against the document base (as a JSON-LD processor would).
 */
export const URL_KEYS = new Set([
  "@id",
  "url",
  "image",
  "logo",
  "contentUrl",
  "thumbnailUrl",
  "embedUrl",
  "sameAs",
  "mainEntityOfPage",
  "item",
  "thumbnail",
]);

/** Types that describe the site around a page rather than the page itself. */
const SUPPORTING_TYPES = new Set([
  "WebSite",
  "Organization",
  "Person",
  "BreadcrumbList",
  "ListItem",
  "ImageObject",
  "SiteNavigationElement",
  "SearchAction",
]);

/** Strips wrappers some CMSs put around JSON-LD (HTML comments, CDATA, a trailing `;`). */
function unwrap(raw: string): string {
  const trimmed = raw.trim();
  // Most blocks are bare JSON: none of the wrappers below can match.
  const first = trimmed[0], last = trimmed[trimmed.length - 1];
  if ((first === "{" || first === "[") && (last === "}" || last === "]")) return trimmed;
  return trimmed
    .replace(/^<!--/, "")
    .replace(/-->$/, "")
    .replace(/^\/\/\s*<!\[CDATA\[/, "")
    .replace(/\/\/\s*\]\]>$/, "")
    .trim()
    .replace(/;$/, "");
}

/**
 * Deepest nesting of arrays and objects read in a block: real ones stay under 20, and the
 * fields' walks of a block recurse, so 2,000 nested arrays overflowed the stack. Measured by
 * the pass that makes URLs absolute, before any of them.
 */
export const MAX_LD_DEPTH = 64;

/**
 * JSON-LD characters read per page (all blocks together): real pages carry a few KiB to a few
 * hundred, and `JSON.parse` cannot pause, so a 6 MB graph held the instance for half a second
 * on its own (and its answer another). Blocks past it are skipped with a warning.
 */
export const MAX_LD_CHARS = 1_000_000;

/**
 * Parses the blocks of a page against its base URL; a block that cannot be read is skipped.
 * Making URLs absolute pauses for other requests when `yieldSoon` says its slice has passed (a
 * block may be a graph of 150,000 nodes).
 */
export async function parseJsonLd(
  texts: string[],
  base: string,
  yieldSoon: YieldSoon = cooperative(),
): Promise<JsonLd> {
  const ld: JsonLd = { blocks: [], nodes: [], byId: new Map(), warnings: [] };
  let read = 0;
  for (const [i, raw] of texts.entries()) {
    if (yieldSoon.due()) await yieldSoon();
    if (read + raw.length > MAX_LD_CHARS) {
      ld.warnings.push(
        `JSON-LD block ${i + 1} is past the ${MAX_LD_CHARS} characters read per page; skipped`,
      );
      continue;
    }
    read += raw.length;
    const source = unwrap(raw);
    if (source === "") {
      ld.warnings.push(`JSON-LD block ${i + 1} is empty; skipped`);
      continue;
    }
    let block: unknown;
    try {
      block = JSON.parse(source); // iterative in V8: any depth parses
    } catch {
      ld.warnings.push(`JSON-LD block ${i + 1} is not valid JSON; skipped`);
      continue;
    }
    if (!await absolutise(block, base, yieldSoon)) {
      ld.warnings.push(`JSON-LD block ${i + 1} nests deeper than ${MAX_LD_DEPTH} levels; skipped`);
      continue;
    }
    ld.blocks.push(block);
    for (const node of topNodes(block)) {
      ld.nodes.push(node);
      if (typeof node["@id"] === "string" && !ld.byId.has(node["@id"])) {
        ld.byId.set(node["@id"], node);
      }
    }
  }
  return ld;
}

function isNode(value: unknown): value is LdNode {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The nodes of a block, `@graph` members after their container, added to `out`. */
function topNodes(block: unknown, out: LdNode[] = []): LdNode[] {
  if (Array.isArray(block)) {
    for (const item of block) topNodes(item, out);
    return out;
  }
  if (!isNode(block)) return out;
  if (Object.keys(block).some((k) => k !== "@context" && k !== "@graph")) out.push(block);
  const graph = block["@graph"];
  if (Array.isArray(graph)) { for (const item of graph) topNodes(item, out); }
  return out;
}

/** Values visited between two checks of the cooperative yield. */
const CHECK_EVERY = 1_024;

/**
 * Resolves string values under URL keys (an array's items under its key), in place: `block`
 * is fresh from `JSON.parse`, so no copy of it is made. `@context` is left as written. One
 * pass over the values with a stack, pausing when `yieldSoon` is due. False (and stopped)
 * when arrays and objects nest deeper than MAX_LD_DEPTH: the block is not to be read.
 */
async function absolutise(
  block: unknown,
  base: string,
  yieldSoon: YieldSoon,
): Promise<boolean> {
  const resolve = (value: string) =>
    /\s/.test(value.trim()) ? value : resolveUrl(value, base) ?? value;
  // Containers still to visit, each with the key it sits under (null at the top), its depth.
  const stack: [Record<string, unknown> | unknown[], string | null, number][] = [];
  if (typeof block === "object" && block !== null) stack.push([block as LdNode, null, 1]);
  let visited = 0;
  while (stack.length > 0) {
    if (++visited % CHECK_EVERY === 0 && yieldSoon.due()) await yieldSoon();
    const [container, key, depth] = stack.pop()!;
    if (depth > MAX_LD_DEPTH) return false;
    if (Array.isArray(container)) {
      const isUrl = key !== null && URL_KEYS.has(key);
      for (let i = 0; i < container.length; i++) {
        const v = container[i];
        if (typeof v === "string") {
          if (isUrl) container[i] = resolve(v);
        } else if (typeof v === "object" && v !== null) stack.push([v as LdNode, key, depth + 1]);
      }
      continue;
    }
    for (const k of Object.keys(container)) {
      if (k === "@context") continue;
      const v = container[k];
      if (typeof v === "string") {
        if (URL_KEYS.has(k)) container[k] = resolve(v);
      } else if (typeof v === "object" && v !== null) stack.push([v as LdNode, k, depth + 1]);
    }
  }
  return true;
}

/** A node, or the node a bare `{"@id": ...}` reference points to. */
export function deref(ld: JsonLd, value: unknown): unknown {
  if (isNode(value) && typeof value["@id"] === "string" && Object.keys(value).length === 1) {
    return ld.byId.get(value["@id"]) ?? value;
  }
  return value;
}

function isPresent(value: unknown): boolean {
  if (value === null || value === undefined || value === "") return false;
  return !Array.isArray(value) || value.length > 0;
}

/** The value of `key` on the first node that has it (references followed). */
export function ldValue(ld: JsonLd, key: string, nodes: LdNode[] = ld.nodes): unknown {
  for (const node of nodes) {
    if (isPresent(node[key])) return deref(ld, node[key]);
  }
  return undefined;
}

/** The `@type` names of a node. */
export function typesOf(node: LdNode): string[] {
  const t = node["@type"];
  if (typeof t === "string") return [t];
  return Array.isArray(t) ? t.filter((x): x is string => typeof x === "string") : [];
}

/** Nodes having one of `types`. */
export function nodesOfType(ld: JsonLd, types: readonly string[]): LdNode[] {
  return ld.nodes.filter((n) => typesOf(n).some((t) => types.includes(t)));
}

/** The node the page is about: the first with a headline, else the first not of a supporting type. */
export function mainNode(ld: JsonLd): LdNode | undefined {
  return ld.nodes.find((n) => isPresent(n.headline)) ??
    ld.nodes.find((n) =>
      typesOf(n).length > 0 && !typesOf(n).every((t) => SUPPORTING_TYPES.has(t))
    );
}

/** A text value: strings are entity-decoded (JSON does not decode HTML entities), objects give their name. */
export function ldText(ld: JsonLd, value: unknown): string | null {
  value = deref(ld, value);
  if (typeof value === "string") return decodeHTML(value);
  if (typeof value === "number") return String(value);
  if (Array.isArray(value)) {
    for (const v of value) {
      const t = ldText(ld, v);
      if (t) return t;
    }
    return null;
  }
  if (isNode(value)) return ldText(ld, value.name);
  return null;
}

/** Names of one or more people or organisations, joined with ", ". */
export function ldNames(ld: JsonLd, value: unknown): string | null {
  const list = Array.isArray(value) ? value : [value];
  const names = list.map((v) => ldText(ld, v)?.trim()).filter((n): n is string => !!n);
  return names.length > 0 ? joinNames([...new Set(names)]) : null;
}

/** A URL value: a string, or an object's `url` / `contentUrl`; the first of an array. */
export function ldUrl(ld: JsonLd, value: unknown): string | null {
  value = deref(ld, value);
  if (typeof value === "string") return value;
  if (Array.isArray(value)) {
    for (const v of value) {
      const u = ldUrl(ld, v);
      if (u) return u;
    }
    return null;
  }
  if (isNode(value)) return ldUrl(ld, value.url ?? value.contentUrl);
  return null;
}

/** Names as an English list: "Ann", "Ann and Bob", "Ann, Bob and Cy" (as a byline writes them). */
export function joinNames(names: string[]): string {
  if (names.length < 2) return names.join("");
  return `${names.slice(0, -1).join(", ")} and ${names[names.length - 1]}`;
}

/** An image value: a URL string, or an ImageObject with width, height and caption. */
export function ldImage(
  ld: JsonLd,
  value: unknown,
): { url: string; width: unknown; height: unknown; alt: unknown } | null {
  value = deref(ld, value);
  if (Array.isArray(value)) {
    for (const v of value) {
      const image = ldImage(ld, v);
      if (image) return image;
    }
    return null;
  }
  const url = ldUrl(ld, value);
  if (!url) return null;
  if (!isNode(value)) return { url, width: null, height: null, alt: null };
  return { url, width: value.width, height: value.height, alt: value.caption ?? null };
}
