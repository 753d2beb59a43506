/**
 * Every event htmlparser2's Parser emits for a page fed in chunks, as lines of text: what two
 * tokenizers must agree on (the skipping tokenizer's tests, and its check on real pages in
 * bench/skipping_tokenizer_test.ts).
 */
import { Parser, Tokenizer } from "htmlparser2";

/** The events of one parse of `html`, written `chunk` characters at a time. */
export function parserEvents(
  html: string,
  tokenizer: typeof Tokenizer,
  chunk = Infinity,
  options: { decodeEntities?: boolean; xmlMode?: boolean } = { decodeEntities: true },
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
  const p = new Parser(handler, {
    ...options,
    lowerCaseAttributeNames: true,
    Tokenizer: tokenizer,
  });
  for (let i = 0; i < html.length; i += chunk) p.write(html.slice(i, i + chunk));
  p.end();
  return out;
}
