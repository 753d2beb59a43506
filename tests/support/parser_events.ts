/**
 * Every event htmlparser2's Parser emits for a page fed in chunks, as lines of text: what two
 * tokenizers, or two parsers, must agree on (the skipping tokenizer's and the lean parser's
 * tests, and their check on real pages in bench/skipping_tokenizer_test.ts).
 */
import { type Handler, Parser, type ParserOptions, Tokenizer } from "htmlparser2";

/** Makes the parser under test (stock `Parser` by default). */
export type MakeParser = (handler: Partial<Handler>, options: ParserOptions) => Parser;

const stockParser: MakeParser = (handler, options) => new Parser(handler, options);

/** The events of one parse of `html`, written `chunk` characters at a time. */
export function parserEvents(
  html: string,
  tokenizer: typeof Tokenizer,
  chunk = Infinity,
  options: { decodeEntities?: boolean; xmlMode?: boolean } = { decodeEntities: true },
  make: MakeParser = stockParser,
): string[] {
  const out: string[] = [];
  let parser: Parser | null = null;
  const handler = new Proxy({}, {
    get: (_target, name) =>
      name === "onparserinit" ? (p: Parser) => parser = p : (...args: unknown[]) =>
        out.push(
          `${String(name)} ${parser?.startIndex}-${parser?.endIndex} ${JSON.stringify(args)}`,
        ),
  });
  const p = make(handler, { ...options, lowerCaseAttributeNames: true, Tokenizer: tokenizer });
  for (let i = 0; i < html.length; i += chunk) p.write(html.slice(i, i + chunk));
  p.end();
  return out;
}
