/**
 * The one streaming parse of a page: htmlparser2's events from the lean parser with the
 * skipping tokenizer, the page written once and read in slices, pausing between two slices
 * when the cooperative yield says its slice is due (other requests run meanwhile) and stopping
 * with the yield's error once its budget is spent. html.ts builds its bounded parses on it; the
 * /summary reader (functions/ai-summary/tree.ts) uses it directly, since html.ts also loads
 * css-select, which the reader does not need on an instance's first page.
 */
import type { YieldSoon } from "../contract/cooperative.ts";
import { type InterestedHandler, LeanParser, type ParseBounds } from "./lean_parser.ts";
import { SkippingTokenizer } from "./skipping_tokenizer.ts";

/** The options of every parse here (tests and benchmarks compare parsers under them). */
export const PARSER_OPTIONS = {
  decodeEntities: true,
  lowerCaseAttributeNames: true,
  Tokenizer: SkippingTokenizer,
};

/**
 * Parses `html` into `handler`'s callbacks within `bounds` (depth, nodes: over one, its
 * `refuse` throws), checking `yieldSoon.due()` every `sliceChars` characters: when due, the
 * parse pauses, awaits `yieldSoon()` (which throws once its budget is spent) and goes on.
 */
export async function parseInSlices(
  html: string,
  handler: InterestedHandler,
  bounds: Omit<ParseBounds, "slice" | "sliceChars">,
  sliceChars: number,
  yieldSoon: YieldSoon,
): Promise<void> {
  let paused = false;
  const parser = new LeanParser(handler, PARSER_OPTIONS, {
    ...bounds,
    sliceChars,
    slice: () => paused = yieldSoon.due(),
  }, handler.interest);
  // One write of the whole page: its text stays one flat string (a parse in 32 KiB writes
  // took 17% longer), and the parse pauses where the slice check says.
  parser.write(html);
  while (paused) {
    paused = false;
    await yieldSoon();
    parser.resume();
  }
  parser.end();
}
