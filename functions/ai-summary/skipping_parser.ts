/**
 * parse5's Parser with a tokenizer that takes a run of ordinary characters in one native
 * search instead of one step of its state machine per character. In text (the data, RCDATA,
 * RAWTEXT, script data and PLAINTEXT states), in quoted attribute values and in comments, the
 * stock state does the same for every character of such a run: it appends it to the pending
 * slice of input (`_extendRun`), in text after checking that the character token being built
 * has its type (characters or white space, which a run never mixes); in tag and attribute
 * names it appends the character to the name (lower-cased: a run has no upper-case letter). Here the first character
 * goes through the stock state and the rest of its run is then consumed at once: the same
 * tokens (but in script and style text, see RAW_TEXT_RUN), at the same places, with the same
 * preprocessor state (its line count included). A
 * run never holds what the preprocessor treats apart (CR, surrogates, control characters,
 * noncharacters) nor what a state stops at (`<`, `&`, the quote, `-`, NUL). On an instance's first page (code not yet
 * compiled by the JIT) the per-character steps took most of the parse (bench/cold_path.ts).
 * tests/ai-summary/skipping_parser_test.ts checks tokens and trees equal stock parse5's.
 */
import { Parser, type ParserOptions, Tokenizer, type TreeAdapterTypeMap } from "parse5";

/** The fields and methods read here (private in parse5's types). */
interface Internals {
  state: number;
  runEnd: number;
  preprocessor: { html: string; pos: number; isEol: boolean; line: number; lineStartPos: number };
  currentToken: { tagName: string };
  currentAttr: { name: string };
}
type StateMethod = (this: Internals, cp: number) => void;

/**
 * A run of `allowed` (a character class body) plus what the preprocessor passes through as it
 * is: U+00A0 to U+FDCF outside the surrogates (below U+00A0, `allowed` says which).
 */
const runOf = (allowed: string) => new RegExp(`[${allowed}\\xa0-\\ud7ff\\ue000-\\ufdcf]*`, "y");

/** Text in the data and RCDATA states: not `<`, `&` or white space. */
const TEXT_RUN = runOf("\\x21-\\x25\\x27-\\x3b\\x3d-\\x7e");
/** Text in the PLAINTEXT state (no references there): not `<` or white space. */
const RAW_RUN = runOf("\\x21-\\x3b\\x3d-\\x7e");
/**
 * Text of a `<script>`, `<style>` or other raw-text element, white space included: not `<`.
 * Its characters and white space go into one token of the first one's type, where stock
 * parse5 makes a token at each change of type; the tree is the same, since the parser, in
 * the "text" insertion mode it is always in for these two states, appends both kinds alike.
 */
const RAW_TEXT_RUN = runOf("\\t\\n\\f\\x20-\\x3b\\x3d-\\x7e");
/** White space in text (LF included: its line is counted as the preprocessor counts it; not CR). */
const SPACE_RUN = /[ \t\n\f]*/y;
/** A double-quoted attribute value: not its quote or `&` (white space is part of it). */
const DOUBLE_QUOTED_RUN = runOf("\\t\\n\\f\\x20\\x21\\x23-\\x25\\x27-\\x7e");
/** A single-quoted attribute value: not its quote or `&`. */
const SINGLE_QUOTED_RUN = runOf("\\t\\n\\f\\x20-\\x25\\x28-\\x7e");
/** A comment: not `-` or `<` (either may begin its end or a nested opening). */
const COMMENT_RUN = runOf("\\t\\n\\f\\x20-\\x2c\\x2e-\\x3b\\x3d-\\x7e");

/** A tag name: not white space, `/`, `>`, NUL or an upper-case letter (which is lowered). */
const TAG_NAME_RUN = runOf("\\x21-\\x2e\\x30-\\x3d\\x3f\\x40\\x5b-\\x7e");
/** An attribute name: nor `=`, the quotes or `<` (a parse error each). */
const ATTRIBUTE_NAME_RUN = runOf("\\x21\\x23-\\x26\\x28-\\x2e\\x30-\\x3b\\x3f\\x40\\x5b-\\x7e");

const SPACE = 0x20;
const TAB = 0x09;
const FORM_FEED = 0x0c;
const LINE_FEED = 0x0a;

/**
 * Wraps the stock state `name`: after it has taken the current character `cp` (the input's
 * character at `pos`) and stayed in its state, the rest of the run that `pick(cp)` matches is
 * consumed: `pos` moves to its last character and the pending slice ends after it, which is
 * what the stock loop leaves after taking those characters one by one.
 */
function skipAfter(name: string, pick: (cp: number) => RegExp): void {
  const state = (Tokenizer.prototype as unknown as Record<string, StateMethod>)[name];
  (SkippingTokenizer.prototype as unknown as Record<string, StateMethod>)[name] = function (cp) {
    const before = this.state;
    state.call(this, cp);
    const p = this.preprocessor;
    if (this.state !== before || p.html.charCodeAt(p.pos) !== cp) return;
    const re = pick(cp);
    re.lastIndex = p.pos;
    re.test(p.html);
    if (re.lastIndex > p.pos + 1) {
      countLines(p, p.pos + 1, re.lastIndex);
      p.pos = re.lastIndex - 1;
      this.runEnd = re.lastIndex;
    }
  };
}

/**
 * The preprocessor's line count after it has read the input from `start` to `end` (no CR
 * there): a line starts at the character after each LF, and an LF at the end leaves the next
 * line to start at the next character read, as its `advance` does one character at a time.
 */
function countLines(p: Internals["preprocessor"], start: number, end: number): void {
  if (p.isEol) {
    p.isEol = false;
    p.line++;
    p.lineStartPos = start;
  }
  for (
    let lf = p.html.indexOf("\n", start);
    lf !== -1 && lf < end;
    lf = p.html.indexOf("\n", lf + 1)
  ) {
    if (lf + 1 < end) {
      p.line++;
      p.lineStartPos = lf + 1;
    } else p.isEol = true;
  }
}

/**
 * Wraps the stock name state `name`: after it has appended the current character to the name
 * `append` extends and stayed in its state, the following characters `re` takes (each of
 * which the stock state appends as it is) are appended at once.
 */
function nameAfter(name: string, re: RegExp, append: (t: Internals, run: string) => void): void {
  const state = (Tokenizer.prototype as unknown as Record<string, StateMethod>)[name];
  (SkippingTokenizer.prototype as unknown as Record<string, StateMethod>)[name] = function (cp) {
    const before = this.state;
    state.call(this, cp);
    const p = this.preprocessor;
    if (this.state !== before) return;
    re.lastIndex = p.pos + 1;
    re.test(p.html);
    if (re.lastIndex > p.pos + 1) {
      append(this, p.html.slice(p.pos + 1, re.lastIndex));
      p.pos = re.lastIndex - 1;
    }
  };
}

const isSpace = (cp: number) => cp === SPACE || cp === TAB || cp === FORM_FEED || cp === LINE_FEED;

/** parse5's tokenizer, taking runs of ordinary characters at once (see the module doc). */
class SkippingTokenizer extends Tokenizer {}

skipAfter("_stateData", (cp) => isSpace(cp) ? SPACE_RUN : TEXT_RUN);
skipAfter("_stateRcdata", (cp) => isSpace(cp) ? SPACE_RUN : TEXT_RUN);
skipAfter("_stateRawtext", () => RAW_TEXT_RUN);
skipAfter("_stateScriptData", () => RAW_TEXT_RUN);
skipAfter("_statePlaintext", (cp) => isSpace(cp) ? SPACE_RUN : RAW_RUN);
skipAfter("_stateAttributeValueDoubleQuoted", () => DOUBLE_QUOTED_RUN);
skipAfter("_stateAttributeValueSingleQuoted", () => SINGLE_QUOTED_RUN);
skipAfter("_stateComment", () => COMMENT_RUN);
nameAfter("_stateTagName", TAG_NAME_RUN, (t, run) => t.currentToken.tagName += run);
nameAfter("_stateAttributeName", ATTRIBUTE_NAME_RUN, (t, run) => t.currentAttr.name += run);

/**
 * A parse5 Parser for a document whose tokenizer takes runs of ordinary characters at once
 * (same tokens and tree as `new Parser(options)`); feed it with `parser.tokenizer.write`.
 */
export function skippingParser<T extends TreeAdapterTypeMap>(
  options: ParserOptions<T>,
): Parser<T> {
  const parser = new Parser(options);
  Object.setPrototypeOf(parser.tokenizer, SkippingTokenizer.prototype);
  return parser;
}
