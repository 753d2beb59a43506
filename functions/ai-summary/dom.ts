/**
 * Small DOM helpers over domhandler trees for the reader: every walk is iterative (an explicit
 * stack, never recursion), so a deeply nested page cannot overflow the call stack, and the
 * mutations keep domhandler's parent/prev/next links right.
 */
import type { AnyNode, ChildNode, Element, ParentNode } from "domhandler";

/** True for an element node. */
export function isElement(node: AnyNode | null | undefined): node is Element {
  return !!node && (node.type === "tag" || node.type === "script" || node.type === "style");
}

/** True for a text node. */
export function isTextNode(node: AnyNode): node is AnyNode & { data: string } {
  return node.type === "text";
}

/** The child nodes of a node (none for texts and comments). */
export function childrenOf(node: AnyNode): AnyNode[] {
  return "children" in node ? (node as ParentNode).children : [];
}

/** The element children of a node. */
export function elementChildren(node: AnyNode): Element[] {
  return childrenOf(node).filter(isElement);
}

/** The concatenated text of every text node under `node` (like DOM `textContent`). */
export function textContent(node: AnyNode): string {
  if (isTextNode(node)) return node.data;
  const parts: string[] = [];
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isTextNode(n)) parts.push(n.data);
    else {
      const kids = childrenOf(n);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return parts.join("");
}

/**
 * `innerText(node).length` without building the text: text node by text node, each trimmed
 * and its inner runs of white space made one space (native string operations, no loop over
 * characters: on an instance's first page that loop runs unoptimised), plus one space where
 * white space separates two text nodes' characters. The reader asks for lengths of large
 * subtrees again and again (link density); building each one's text made most of a read's
 * garbage.
 */
export function innerTextLength(node: AnyNode): number {
  return textRun(node).length;
}

/** What a subtree's text adds to an enclosing one's `innerText` (see {@link textRun}). */
export interface TextRun {
  /** `innerText(subtree).length`. */
  length: number;
  /** It holds a character that is not white space. */
  text: boolean;
  /** White space comes before its first such character (with none: it holds white space). */
  lead: boolean;
  /** White space comes after its last such character (with none: it holds white space). */
  trail: boolean;
}

/**
 * `node`'s {@link TextRun}, read as `innerTextLength` reads it; an element for which `known`
 * gives a run is taken as that run instead of being walked again, so that measuring nested
 * elements inner first walks each node about once (the reader's link densities).
 */
export function textRun(
  node: AnyNode,
  known?: (el: Element) => TextRun | undefined,
): TextRun {
  let length = 0;
  let started = false;
  let lead = false;
  let space = false;
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    // The piece of text `n` adds: its length, and white space before and after it.
    let pieceLead: boolean;
    let pieceLength: number;
    let pieceTrail: boolean;
    if (isTextNode(n)) {
      const data = n.data;
      const trimmed = data.trim();
      if (trimmed.length === 0) {
        if (data.length > 0) space = true;
        continue;
      }
      pieceLead = trimmed.length !== data.length && isSpaceAt(data, 0);
      pieceLength = SPACES.test(trimmed) ? trimmed.replace(SPACE_RUNS, " ").length : trimmed.length;
      pieceTrail = isSpaceAt(data, data.length - 1);
    } else {
      const run = known && n !== node && isElement(n) ? known(n) : undefined;
      if (!run) {
        const kids = childrenOf(n);
        for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
        continue;
      }
      if (!run.text) {
        if (run.trail) space = true;
        continue;
      }
      pieceLead = run.lead;
      pieceLength = run.length;
      pieceTrail = run.trail;
    }
    const before = space || pieceLead;
    if (started) {
      if (before) length++;
    } else lead = before;
    length += pieceLength;
    started = true;
    space = pieceTrail;
  }
  return { length, text: started, lead: started ? lead : space, trail: space };
}

/** Two or more white space characters (what `innerText` makes one space). */
const SPACES = /\s{2}/;
const SPACE_RUNS = /\s{2,}/g;
const SPACE_AT = /\s/y;

/** True when `text` has white space (as `\s` and `trim()` mean it) at `index`. */
function isSpaceAt(text: string, index: number): boolean {
  SPACE_AT.lastIndex = index;
  return SPACE_AT.test(text);
}

/**
 * True when some text under `node` is not white space: `textContent(node).trim() !== ""`
 * without building the text (it stops at the first such text node).
 */
export function hasText(node: AnyNode): boolean {
  const stack: AnyNode[] = [node];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (isTextNode(n)) {
      if (NOT_SPACE.test(n.data)) return true;
    } else {
      const kids = childrenOf(n);
      for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
    }
  }
  return false;
}
/** What `trim()` keeps: `\s` is exactly the white space it removes. */
const NOT_SPACE = /\S/;

/**
 * True when some element under `root` (not `root` itself) is named in `names`:
 * `descendants(root, names).length > 0` without listing them (it stops at the first).
 */
export function hasDescendant(root: AnyNode, names: ReadonlySet<string>): boolean {
  const stack: AnyNode[] = [...childrenOf(root)];
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (names.has(n.name)) return true;
    for (let i = 0; i < n.children.length; i++) stack.push(n.children[i]);
  }
  return false;
}

/** `textContent` trimmed, runs of two or more white space characters made one space. */
export function innerText(node: AnyNode): string {
  return textContent(node).trim().replace(/\s{2,}/g, " ");
}

/** Every element under `root` (not `root` itself) whose name is in `names`, in document order. */
export function descendants(root: AnyNode, names?: ReadonlySet<string>): Element[] {
  const out: Element[] = [];
  const stack: AnyNode[] = [];
  const kids = childrenOf(root);
  for (let i = kids.length - 1; i >= 0; i--) stack.push(kids[i]);
  while (stack.length > 0) {
    const n = stack.pop()!;
    if (!isElement(n)) continue;
    if (!names || names.has(n.name)) out.push(n);
    const c = n.children;
    for (let i = c.length - 1; i >= 0; i--) stack.push(c[i]);
  }
  return out;
}

/** True when `el` has an ancestor named `name` (within `maxDepth` levels when > 0). */
export function hasAncestor(
  el: AnyNode,
  name: string,
  maxDepth = 0,
  filter?: (el: Element) => boolean,
): boolean {
  let depth = 0;
  for (let p = el.parent; p; p = p.parent) {
    if (maxDepth > 0 && depth > maxDepth) return false;
    if (isElement(p) && p.name === name && (!filter || filter(p))) return true;
    depth++;
  }
  return false;
}

/** Removes a node from its parent. */
export function detach(node: AnyNode): void {
  const parent = node.parent;
  if (!parent) return;
  const i = parent.children.indexOf(node as never);
  if (i >= 0) parent.children.splice(i, 1);
  if (node.prev) node.prev.next = node.next;
  if (node.next) node.next.prev = node.prev;
  node.parent = node.prev = node.next = null;
}

/**
 * Removes `nodes` from their parents: one pass over each parent's list, as `appendAll` moves
 * them (removing them one by one costs a search and a splice each, quadratic when a page
 * holds 150,000 siblings and every other one goes).
 */
export function detachAll(nodes: Iterable<AnyNode>): void {
  const leaving = new Set<AnyNode>();
  const parents = new Set<ParentNode>();
  for (const n of nodes) {
    if (!n.parent) continue;
    leaving.add(n);
    parents.add(n.parent);
  }
  for (const p of parents) relinkChildren(p, p.children.filter((c) => !leaving.has(c)));
  for (const n of leaving) n.parent = n.prev = n.next = null;
}

/** Makes `kids` the children of `parent`, with their parent and sibling links (one pass). */
export function relinkChildren(parent: ParentNode, kids: AnyNode[]): void {
  parent.children = kids as ChildNode[];
  for (let i = 0; i < kids.length; i++) {
    kids[i].parent = parent;
    kids[i].prev = i > 0 ? kids[i - 1] as ChildNode : null;
    kids[i].next = i + 1 < kids.length ? kids[i + 1] as ChildNode : null;
  }
}

/**
 * Moves `nodes`, in order, to the end of `parent`'s children. One pass over each former parent's
 * list: moving them one by one (`insert`) costs an indexOf and a splice each, quadratic when a
 * page holds 150,000 siblings.
 */
export function appendAll(parent: ParentNode, nodes: AnyNode[]): void {
  const moving = new Set(nodes);
  const former = new Set<ParentNode>();
  for (const n of nodes) if (n.parent) former.add(n.parent);
  for (const old of former) relinkChildren(old, old.children.filter((c) => !moving.has(c)));
  relinkChildren(parent, [...parent.children, ...nodes]);
}

/** Inserts `node` into `parent` before `before` (at the end when null). */
export function insert(parent: ParentNode, node: AnyNode, before: AnyNode | null = null): void {
  detach(node);
  const kids = parent.children;
  const i = before ? kids.indexOf(before as never) : -1;
  const at = i >= 0 ? i : kids.length;
  const prev = at > 0 ? kids[at - 1] : null;
  const next = at < kids.length ? kids[at] : null;
  kids.splice(at, 0, node as never);
  node.parent = parent;
  node.prev = prev;
  node.next = next;
  if (prev) prev.next = node;
  if (next) next.prev = node;
}

/** Puts `replacement` where `old` is and removes `old`. */
export function replace(old: AnyNode, replacement: AnyNode): void {
  const parent = old.parent;
  if (!parent) return;
  insert(parent, replacement, old);
  detach(old);
}
