/**
 * `selector` and `waitFor` are CSS: puppeteer also reads its own query languages from the same
 * string (`xpath/…`, `text/…`, `aria/…`, `pierce/…`, `::-p-xpath(…)`, `::-p-text(…)`), which
 * the contract does not offer. The selector is parsed with css-what (already what css-select
 * runs on), and what puppeteer would take as its own is refused.
 */
import { parse, type Selector } from "css-what";

/** Whether `raw` is a CSS selector list with none of puppeteer's own query forms. */
export function isCssSelector(raw: string): boolean {
  let parsed: Selector[][];
  try {
    parsed = parse(raw);
  } catch {
    return false;
  }
  return parsed.length > 0 && parsed.every((list) => list.length > 0 && list.every(isPlainCss));
}

function isPlainCss(token: Selector): boolean {
  switch (token.type) {
    case "tag":
      // css-what reads `text/hello` as the tags `text` and `/hello`.
      return !token.name.includes("/");
    case "pseudo":
    case "pseudo-element":
      if (token.name.toLowerCase().startsWith("-p-")) return false;
      return !Array.isArray(token.data) ||
        token.data.every((list) => list.every(isPlainCss));
    default:
      return true;
  }
}
