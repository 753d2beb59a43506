/**
 * Every token parse5's tokenizer gives its tree builder for a page fed in chunks, with source
 * locations and parse errors, as lines of text, and the tree built: what the reader's skipping
 * parser (functions/ai-summary/skipping_parser.ts) must agree on with stock parse5 (its tests,
 * and its check on real pages in bench/skipping_parser_test.ts).
 */
import { Parser, type ParserOptions, serialize } from "parse5";
import type { DefaultTreeAdapterMap } from "parse5";

/** Makes the parser to run (stock: `(o) => new Parser(o)`). */
export type MakeParser = (
  options: ParserOptions<DefaultTreeAdapterMap>,
) => Parser<DefaultTreeAdapterMap>;

const HANDLERS = [
  "onCharacter",
  "onNullCharacter",
  "onWhitespaceCharacter",
  "onComment",
  "onDoctype",
  "onStartTag",
  "onEndTag",
  "onEof",
] as const;

/** The parser's "text" insertion mode (parse5 does not export its InsertionMode numbers). */
const TEXT_MODE = 7;
/** Elements whose text is RCDATA (its character tokens are compared one by one). */
const RCDATA = new Set(["title", "textarea"]);

/**
 * The tokens (with locations, unless `locations` is false: the reader's options) and parse
 * errors of one parse of `html`, written `chunk` characters at a time, then the serialised
 * tree as the last line. In the text of a script,
 * style or other raw-text element, the character and white space tokens in a row are one
 * line, their text joined, from the first one's start to the last one's end: the parser
 * appends both kinds alike there, and the skipping parser makes one token of them.
 */
export function parse5Tokens(
  html: string,
  make: MakeParser,
  chunk = Infinity,
  locations = true,
): string[] {
  const out: string[] = [];
  const parser = make({
    sourceCodeLocationInfo: locations,
    onParseError: (e) => out.push(`error ${JSON.stringify(e)}`),
  });
  const handler = parser as unknown as Record<string, (token: unknown) => void>;
  const state = parser as unknown as {
    insertionMode: number;
    openElements: { current: { tagName?: string } };
  };
  let raw: { chars: string; start: number; end: number } | null = null;
  const flushRaw = () => {
    if (raw) out.push(`raw text ${JSON.stringify(raw)}`);
    raw = null;
  };
  for (const name of HANDLERS) {
    const stock = handler[name].bind(parser);
    handler[name] = (token) => {
      const t = token as { chars?: string; location?: { startOffset: number; endOffset: number } };
      const text = name === "onCharacter" || name === "onWhitespaceCharacter";
      if (
        text && state.insertionMode === TEXT_MODE &&
        !RCDATA.has(state.openElements.current?.tagName ?? "")
      ) {
        const loc = t.location ?? { startOffset: -1, endOffset: -1 };
        if (raw) {
          raw.chars += t.chars;
          raw.end = loc.endOffset;
        } else raw = { chars: t.chars!, start: loc.startOffset, end: loc.endOffset };
      } else {
        flushRaw();
        out.push(`${name} ${JSON.stringify(token)}`);
      }
      stock(token);
    };
  }
  if (html.length === 0) parser.tokenizer.write("", true);
  for (let i = 0; i < html.length; i += chunk) {
    parser.tokenizer.write(html.slice(i, i + chunk), i + chunk >= html.length);
  }
  flushRaw();
  out.push(`tree ${serialize(parser.document)}`);
  return out;
}

/** The same parse without locations or errors (the reader's options): the tree alone. */
export function parse5Tree(html: string, make: MakeParser, chunk = Infinity): string {
  const parser = make({});
  if (html.length === 0) parser.tokenizer.write("", true);
  for (let i = 0; i < html.length; i += chunk) {
    parser.tokenizer.write(html.slice(i, i + chunk), i + chunk >= html.length);
  }
  return serialize(parser.document);
}
