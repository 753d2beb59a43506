/**
 * `/read`'s HTML tree: parse5 builds the tree a browser builds (text after a stray `</html>`
 * stays in `<body>`, tables and misnested tags are repaired by the HTML standard's rules) and
 * parse5-htmlparser2-tree-adapter makes it a domhandler tree, so the reader and the sanitiser
 * read it like the lean parser's (tree.ts). `/read` returns the page's own HTML, sanitised on
 * this tree: the sanitiser must see the tree a browser will build from it (a gap between the
 * two is where mutation XSS lives). The parse is bounded like tree.ts's: nesting depth, node
 * count and time, read in slices with yields between them. Its tokenizer takes runs of plain
 * text at once (skipping_parser.ts: the same tokens and tree as stock parse5's).
 */
import { adapter } from "parse5-htmlparser2-tree-adapter";
import { type Document, Element, type ParentNode } from "domhandler";
import type { YieldSoon } from "../../shared/contract/cooperative.ts";
import { skippingParser, writeInSlices } from "./skipping_parser.ts";
import {
  DEFAULT_TREE_LIMITS,
  overLimit,
  readerYield,
  SLICE_CHARS,
  type TreeLimits,
} from "./tree.ts";

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
export async function parseBrowserTree(
  html: string,
  limits: TreeLimits = DEFAULT_TREE_LIMITS,
  yieldSoon: YieldSoon = readerYield(limits.maxMs),
): Promise<Document> {
  let nodes = 0;
  const count = () => {
    if (++nodes > limits.maxNodes) throw overLimit("maxNodes", limits);
  };
  // Depth is recorded on each node as it is attached (children of a node moved later by the
  // adoption agency keep their old depth: close enough for a bound).
  const place = (parent: WithDepth, child: WithDepth) => {
    const depth = (parent[DEPTH] ?? 0) + 1;
    if (depth > limits.maxDepth) throw overLimit("maxDepth", limits);
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
    // The adapter attaches a new text node itself (not through appendChild): counted here, as
    // the lean parser counts texts (text joining the one before it is no new node).
    insertText(parent, text) {
      if (parent.children.at(-1)?.type !== "text") count();
      adapter.insertText(parent, text);
    },
    insertTextBefore(parent, text, reference) {
      if (reference.prev?.type !== "text") count();
      adapter.insertTextBefore(parent, text, reference);
    },
  };
  const parser = skippingParser({ treeAdapter: bounded });
  await writeInSlices(parser, html, SLICE_CHARS, yieldSoon);
  await yieldSoon();
  return parser.document as unknown as Document;
}
