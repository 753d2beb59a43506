/**
 * The reader's HTML tree: parse5 builds the tree a browser builds (text after a stray
 * `</html>` stays in `<body>`, tables and misnested tags are repaired by the HTML standard's
 * rules) and parse5-htmlparser2-tree-adapter makes it a domhandler tree, so css-select and the
 * shared helpers read it like any other. The parse is bounded: nesting depth, node count and
 * time; it is read in slices and yields to the event loop between them, so one hostile page
 * does not block other requests for long. Its tokenizer takes runs of plain text at once
 * (skipping_parser.ts: the same tokens and tree as stock parse5's).
 */
import { adapter } from "parse5-htmlparser2-tree-adapter";
import { type Document, Element, type ParentNode } from "domhandler";
import { cooperative, type YieldSoon } from "../../shared/contract/cooperative.ts";
import { skippingParser, writeInSlices } from "./skipping_parser.ts";

/** Limits of one page's parse and read. */
export interface TreeLimits {
  /** Deepest element nesting accepted (browsers stop nesting at 512). */
  maxDepth: number;
  /** Most nodes (elements, texts, comments) accepted. */
  maxNodes: number;
  /** Milliseconds the parse and the read may take together. */
  maxMs: number;
}

/** The reader's default limits: far above real pages (depth < 100, nodes < 30k in the corpus). */
export const DEFAULT_TREE_LIMITS: TreeLimits = { maxDepth: 1024, maxNodes: 300_000, maxMs: 3000 };

/** The reader's limits with a time budget of `maxMs` (the default one when undefined). */
export function readerLimits(maxMs?: number): TreeLimits {
  return maxMs === undefined ? DEFAULT_TREE_LIMITS : { ...DEFAULT_TREE_LIMITS, maxMs };
}

/**
 * Characters the parser reads between two yields (skipping_parser.ts `writeInSlices`): the
 * yield pauses once a time slice has passed, and this much of the densest markup (a
 * 150,000-`<img>` page) parses in a few ms.
 */
const SLICE_CHARS = 16 * 1024;

/** A page over one of the limits; the message says which. */
export class TreeLimitError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "TreeLimitError";
  }
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

/** A foreign attribute's namespace and prefix (`xlink:href` in SVG), as parse5 gives them. */
interface Attr {
  name: string;
  value: string;
  namespace?: string;
  prefix?: string;
}
type Maps = {
  "x-attribsNamespace"?: Record<string, unknown>;
  "x-attribsPrefix"?: Record<string, unknown>;
};

/**
 * Records a foreign attribute's namespace and prefix in the maps the adapter keeps for them,
 * made on the element's first such attribute.
 */
function foreignAttribute(el: Maps, attr: Attr): void {
  if (attr.namespace === undefined && attr.prefix === undefined) return;
  (el["x-attribsNamespace"] ??= Object.create(null))[attr.name] = attr.namespace;
  (el["x-attribsPrefix"] ??= Object.create(null))[attr.name] = attr.prefix;
}

/**
 * Elements as parse5-htmlparser2-tree-adapter makes them, less its two maps of attributes'
 * namespaces and prefixes on every element: only an element with a foreign attribute (SVG's
 * `xlink:href`, `xml:lang`) gets them, which domhandler reads the same (an absent entry and an
 * absent map are both no namespace). Two objects fewer per element: a quarter of the tree.
 */
const ELEMENTS: Pick<typeof adapter, "createElement" | "adoptAttributes"> = {
  createElement(tagName, namespaceURI, attrs) {
    // Indexed loops: on an instance's first page this runs unoptimised, where `for...of`
    // makes an iterator result per attribute.
    const attribs: Record<string, string> = Object.create(null);
    for (let i = 0; i < attrs.length; i++) attribs[attrs[i].name] = attrs[i].value;
    const el = new Element(tagName, attribs, []);
    el.namespace = namespaceURI;
    for (let i = 0; i < attrs.length; i++) foreignAttribute(el as Maps, attrs[i]);
    return el;
  },
  adoptAttributes(recipient, attrs) {
    for (const attr of attrs) {
      if (recipient.attribs[attr.name] !== undefined) continue;
      recipient.attribs[attr.name] = attr.value;
      foreignAttribute(recipient as Maps, attr);
    }
  },
};

const DEPTH = Symbol("depth");
type WithDepth = ParentNode & { [DEPTH]?: number };

/**
 * Parses `html` as a browser would, into a domhandler Document, read in slices with
 * `yieldSoon` between them. Throws TreeLimitError when the page nests deeper than `maxDepth`,
 * has more than `maxNodes` nodes or takes longer than `yieldSoon`'s budget.
 */
export async function parseTree(
  html: string,
  limits: TreeLimits = DEFAULT_TREE_LIMITS,
  yieldSoon: YieldSoon = readerYield(limits.maxMs),
): Promise<Document> {
  let nodes = 0;
  const count = () => {
    if (++nodes > limits.maxNodes) {
      throw new TreeLimitError(`Page too large to read: over ${limits.maxNodes} nodes`);
    }
  };
  // Depth is recorded on each node as it is attached (children of a node moved later by the
  // adoption agency keep their old depth: close enough for a bound).
  const place = (parent: WithDepth, child: WithDepth) => {
    const depth = (parent[DEPTH] ?? 0) + 1;
    if (depth > limits.maxDepth) {
      throw new TreeLimitError(`Page nested too deeply to read: over ${limits.maxDepth} levels`);
    }
    child[DEPTH] = depth;
  };
  const bounded: typeof adapter = {
    ...adapter,
    ...ELEMENTS,
    appendChild(parent, child) {
      count();
      place(parent as WithDepth, child as unknown as WithDepth);
      adapter.appendChild(parent, child);
    },
    insertBefore(parent, child, reference) {
      count();
      place(parent as WithDepth, child as unknown as WithDepth);
      adapter.insertBefore(parent, child, reference);
    },
  };
  const parser = skippingParser({ treeAdapter: bounded });
  await writeInSlices(parser, html, SLICE_CHARS, yieldSoon);
  await yieldSoon();
  return parser.document as unknown as Document;
}

/** The `<body>` of a parsed tree (parse5 always makes one), else the first `<html>`. */
export function bodyOf(doc: Document): Element | null {
  const html = doc.children.find((n) => n.type === "tag" && (n as Element).name === "html") as
    | Element
    | undefined;
  if (!html) return null;
  return (html.children.find((n) => n.type === "tag" && (n as Element).name === "body") as
    | Element
    | undefined) ?? html;
}
