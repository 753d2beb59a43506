/**
 * The names of the elements that break a line, in a module of its own: the reader
 * (functions/ai-summary) needs this list and none of html.ts's parser, selector engine and
 * entity tables, which an instance's first page would otherwise load and compile.
 */

/** Elements that break a line: their text is kept apart from their neighbours'. */
export const BLOCKS: ReadonlySet<string> = new Set([
  "address",
  "article",
  "aside",
  "blockquote",
  "br",
  "dd",
  "div",
  "dl",
  "dt",
  "fieldset",
  "figcaption",
  "figure",
  "footer",
  "form",
  "h1",
  "h2",
  "h3",
  "h4",
  "h5",
  "h6",
  "header",
  "hr",
  "li",
  "main",
  "nav",
  "ol",
  "option",
  "p",
  "pre",
  "section",
  "table",
  "td",
  "th",
  "title",
  "tr",
  "ul",
]);
