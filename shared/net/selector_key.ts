/**
 * What every element a CSS selector matches must have, read from css-what's tokens: a tag name
 * or an attribute to index elements by, so that a selector is tested only on elements that can
 * match it (the analyzer's selector rules, the metadata extractor's body rules).
 */
import type { Selector } from "css-what";

/** css-what token types that relate an element to another. */
export const COMBINATORS: ReadonlySet<string> = new Set([
  "adjacent",
  "child",
  "descendant",
  "parent",
  "sibling",
  "column-combinator",
]);

/**
 * What every element matching a selector (parsed by css-what) has: its last compound's tag name
 * (`<a`), else one of that compound's attributes (`@class`; `#x` is `@id`, `.x` is `@class`;
 * not `[x!=y]`, which an element without `x` matches); null when neither (a list, `*`, a
 * pseudo-class alone).
 */
export function selectorKey(parsed: Selector[][]): string | null {
  const token = keyToken(parsed);
  if (token?.type === "tag") return `<${token.name.toLowerCase()}`;
  if (token?.type === "attribute") return `@${token.name.toLowerCase()}`;
  return null;
}

/**
 * The value a selector's key attribute must have (`#x` is `x`; `[a="b"]`, `b`), as written and
 * compared case-sensitively; null when its key is a tag, none, or an attribute of any value
 * or of a value compared otherwise (`[a^=b]`, `[a=b i]`).
 */
export function selectorKeyValue(parsed: Selector[][]): string | null {
  const token = keyToken(parsed);
  return token?.type === "attribute" && token.action === "equals" && token.ignoreCase !== true
    ? token.value
    : null;
}

/** The token `selectorKey` names (see there). */
function keyToken(parsed: Selector[][]): Selector | undefined {
  if (parsed.length !== 1) return undefined;
  const tokens = parsed[0];
  let start = tokens.length;
  while (start > 0 && !COMBINATORS.has(tokens[start - 1].type)) start--;
  const last = tokens.slice(start);
  return last.find((t) => t.type === "tag") ??
    last.find((t) => t.type === "attribute" && t.action !== "not");
}
