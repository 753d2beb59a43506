/**
 * A domhandler tree as lines of text: every node in document order, with an element's name,
 * namespace and attributes (their namespaces and prefixes as domhandler's `attributes`
 * gives them), a text's or comment's data: what two builders of the reader's tree
 * (functions/ai-summary/tree.ts) must agree on.
 */
import type { AnyNode } from "domhandler";

/** The lines of the tree under `root` (iterative: deep trees do not overflow the stack). */
export function domLines(root: AnyNode): string[] {
  const out: string[] = [];
  const stack: [AnyNode, number][] = [[root, 0]];
  while (stack.length > 0) {
    const [n, depth] = stack.pop()!;
    const el = n as AnyNode & {
      name?: string;
      namespace?: string;
      attributes?: unknown;
      data?: string;
      children?: AnyNode[];
    };
    out.push(
      `${depth} ${n.type} ${el.name ?? ""} ${el.namespace ?? ""} ${
        JSON.stringify(el.attributes ?? el.data ?? null)
      }`,
    );
    const kids = el.children ?? [];
    for (let i = kids.length - 1; i >= 0; i--) stack.push([kids[i], depth + 1]);
  }
  return out;
}
