/**
 * A README's first real paragraph: the first Markdown paragraph that is prose, not a badge
 * row, a logo, a link list or a one-word line. Markdown is tokenised by `marked` (its lexer
 * only; nothing is rendered), and the paragraph's inline markup is reduced to its text.
 */
import { Lexer, type Token, type Tokens } from "marked";

/** A paragraph shorter than this (in letters) is a tagline or a label, not an introduction. */
export const MIN_INTRO_LETTERS = 30;

/** The introduction is cut (at a sentence end where possible) to this many characters. */
export const MAX_INTRO_CHARS = 600;

/**
 * Characters of the README searched for it (cut at a line end). An introduction sits near the
 * top, and marked's inline lexer is quadratic on some input: 64 KiB of `_a_a…` (a README
 * anyone can publish) took 2.9 s, the first 8 KiB of it takes under 100 ms.
 */
export const MAX_LEXED_CHARS = 8 * 1024;

/** A link reference definition line (`[name]: url`), which may sit anywhere in a README. */
const DEFINITION = /^ {0,3}\[[^\]\n]{1,200}\]:[ \t]*\S.*$/gm;

/**
 * What the lexer reads: the first `MAX_LEXED_CHARS` of `markdown`, ending at a line end, and
 * the link reference definitions of the rest (READMEs often define badge and link targets
 * at the bottom; without them `[Deno][site]` would stay bracketed text).
 */
function head(markdown: string): string {
  if (markdown.length <= MAX_LEXED_CHARS) return markdown;
  let end = markdown.lastIndexOf("\n", MAX_LEXED_CHARS);
  if (end <= 0) end = MAX_LEXED_CHARS;
  const definitions = markdown.slice(end).match(DEFINITION) ?? [];
  return `${markdown.slice(0, end)}\n\n${definitions.join("\n")}\n`;
}

/** The text of inline tokens: links keep their text, images, HTML and line breaks go. */
function inlineText(tokens: readonly Token[]): string {
  return tokens.map((t) => {
    switch (t.type) {
      case "image":
      case "html":
        return "";
      case "br":
        return " ";
      case "text":
      case "escape":
        return "tokens" in t && t.tokens ? inlineText(t.tokens) : (t as Tokens.Text).text;
      case "codespan":
        return (t as Tokens.Codespan).text;
      default:
        return "tokens" in t && Array.isArray(t.tokens) ? inlineText(t.tokens) : "";
    }
  }).join("");
}

/**
 * Letters in the text that are not part of a link (badge rows are all links), nor of
 * reference-style link syntax whose definitions are missing (`[![x][]][y]` stays text).
 */
function proseLetters(tokens: readonly Token[]): number {
  return tokens.filter((t) => t.type !== "link" && t.type !== "image" && t.type !== "html")
    .map((t) => ("tokens" in t && Array.isArray(t.tokens) ? inlineText(t.tokens) : t.raw))
    .join("").replace(/!?\[[^\]]*\]/g, "").replace(/[^\p{L}]/gu, "").length;
}

/** Cuts text to the cap at the last sentence end inside it, else at a word. */
function cut(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max);
  const sentence = head.match(/^[\s\S]*[.!?](?=\s)/)?.[0];
  if (sentence && sentence.length > max / 2) return sentence;
  return `${head.replace(/\s+\S*$/, "")}…`;
}

/** The README's first real paragraph as plain text, or null when it has none. */
export function readmeIntro(markdown: string | null): string | null {
  if (!markdown?.trim()) return null;
  let tokens: Token[];
  try {
    tokens = new Lexer({ gfm: true }).lex(head(markdown));
  } catch {
    return null;
  }
  for (const token of tokens) {
    if (token.type !== "paragraph") continue;
    const inline = (token as Tokens.Paragraph).tokens ?? [];
    if (proseLetters(inline) < MIN_INTRO_LETTERS) continue;
    const text = inlineText(inline).replace(/\s+/g, " ").trim();
    if (text) return cut(text, MAX_INTRO_CHARS);
  }
  return null;
}
