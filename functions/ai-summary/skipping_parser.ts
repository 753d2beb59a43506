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
 * noncharacters) nor what a state stops at (`<`, `&`, the quote, `-`, NUL). Without source
 * locations (the reader's parse), a plain tag (ASCII name, attributes with no reference, no
 * parse error: most tags of real pages) is read whole from its `<` in the data state (or its
 * first letter) and emitted as the stock states would after it: two thirds of the state steps
 * of a real page were in tags and at their `<`. On an
 * instance's first page (code not yet compiled by the JIT) the per-character steps took most
 * of the parse (bench/cold_path.ts). tests/ai-summary/skipping_parser_test.ts checks tokens
 * and trees equal stock parse5's (bench/skipping_parser_test.ts: on real pages).
 */
import { Parser, type ParserOptions, Tokenizer, type TreeAdapterTypeMap } from "parse5";

/** The preprocessor's fields read here (the input left to read, the position, lines). */
interface Preprocessor {
  html: string;
  pos: number;
  isEol: boolean;
  line: number;
  lineStartPos: number;
  /** Characters of the input dropped from `html` before it (read already). */
  droppedBufferSize: number;
}

/** The fields and methods read here (private in parse5's types). */
interface Internals {
  state: number;
  runEnd: number;
  currentToken: { tagName: string; attrs: { name: string; value: string }[]; selfClosing: boolean };
  currentAttr: { name: string };
  options: { sourceCodeLocationInfo?: boolean };
  preprocessor: Preprocessor;
  active: boolean;
  paused: boolean;
  /** The offset in the whole input past which the tokenizer pauses (see `writeInSlices`). */
  pauseAt: number;
  write(chunk: string, isLastChunk: boolean): void;
  resume(): void;
  _createStartTagToken(): void;
  _createEndTagToken(): void;
  emitCurrentTagToken(): void;
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
/** What a double-quoted attribute value's run holds: not its quote or `&` (white space is). */
const DOUBLE_QUOTED = "\\t\\n\\f\\x20\\x21\\x23-\\x25\\x27-\\x7e";
/** What a single-quoted attribute value's run holds: not its quote or `&`. */
const SINGLE_QUOTED = "\\t\\n\\f\\x20-\\x25\\x28-\\x7e";
/** An unquoted attribute value: not white space, `&`, `>` nor what is a parse error there. */
const UNQUOTED = "\\x21\\x23-\\x25\\x28-\\x3b\\x3f-\\x5f\\x61-\\x7e";
/** What the preprocessor passes through as it is at and above U+00A0 (see runOf). */
const HIGH = "\\xa0-\\ud7ff\\ue000-\\ufdcf";
/** A double-quoted attribute value. */
const DOUBLE_QUOTED_RUN = runOf(DOUBLE_QUOTED);
/** A single-quoted attribute value. */
const SINGLE_QUOTED_RUN = runOf(SINGLE_QUOTED);
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
function skipAfter(name: string, pick: (cp: number) => RegExp, data = false): void {
  const state = (Tokenizer.prototype as unknown as Record<string, StateMethod>)[name];
  (SkippingTokenizer.prototype as unknown as Record<string, StateMethod>)[name] = function (cp) {
    const p = this.preprocessor;
    if (data && cp === LESS_THAN && plainTagAt(this, p.pos)) return;
    const before = this.state;
    state.call(this, cp);
    if (this.state !== before || p.html.charCodeAt(p.pos) !== cp) return;
    const re = pick(cp);
    re.lastIndex = p.pos;
    re.test(p.html);
    if (re.lastIndex > p.pos + 1) {
      countLines(p, p.pos + 1, re.lastIndex);
      p.pos = re.lastIndex - 1;
      this.runEnd = re.lastIndex;
      if (data && p.html.charCodeAt(re.lastIndex) === LESS_THAN) plainTagAt(this, re.lastIndex);
    }
  };
}

/**
 * The preprocessor's line count after it has read the input from `start` to `end` (no CR
 * there): a line starts at the character after each LF, and an LF at the end leaves the next
 * line to start at the next character read, as its `advance` does one character at a time.
 */
function countLines(p: Preprocessor, start: number, end: number): void {
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

/** A tag name the fast path takes: ASCII letters, digits and `-`. */
const PLAIN_TAG_NAME = /[a-zA-Z][a-zA-Z0-9-]*/y;
/** White space in a tag. */
const TAG_SPACE = /[ \t\n\f]*/y;
/**
 * An attribute the fast path takes: an ASCII name, then maybe `=` and a value, quoted or not,
 * with no reference (`&`), NUL, CR, control, surrogate or noncharacter in it.
 */
const PLAIN_ATTRIBUTE = new RegExp(
  `([a-zA-Z_:@][a-zA-Z0-9_:.@-]*)(?:[ \\t\\n\\f]*=[ \\t\\n\\f]*(?:"([${DOUBLE_QUOTED}${HIGH}]*)"` +
    `|'([${SINGLE_QUOTED}${HIGH}]*)'|([${UNQUOTED}${HIGH}]+)))?`,
  "y",
);
const GREATER_THAN = 0x3e;
const LESS_THAN = 0x3c;
const SOLIDUS = 0x2f;
const DATA_STATE = 0;

/** A tag read at once: its lowered name, attributes, `/>` and the index of its `>`. */
interface PlainTag {
  name: string;
  attrs: { name: string; value: string }[];
  selfClosing: boolean;
  end: number;
}

/**
 * A whole start tag from its first letter at `pos`, when it is plain (PLAIN_TAG_NAME and
 * PLAIN_ATTRIBUTEs apart by white space, no duplicate, ending in `>` or `/>` in the input
 * written so far): its lowered name, its attributes, whether it closes itself and where its
 * `>` is. Null for anything else, which the stock states then read one character at a time.
 */
function plainStartTag(html: string, pos: number): PlainTag | null {
  PLAIN_TAG_NAME.lastIndex = pos;
  if (!PLAIN_TAG_NAME.test(html)) return null;
  const name = own(html.slice(pos, PLAIN_TAG_NAME.lastIndex).toLowerCase());
  const attrs: { name: string; value: string }[] = [];
  let i = PLAIN_TAG_NAME.lastIndex;
  for (;;) {
    TAG_SPACE.lastIndex = i;
    TAG_SPACE.test(html);
    const next = TAG_SPACE.lastIndex;
    const c = html.charCodeAt(next);
    if (c === GREATER_THAN) return { name, attrs, selfClosing: false, end: next };
    if (c === SOLIDUS) {
      if (html.charCodeAt(next + 1) !== GREATER_THAN) return null;
      return { name, attrs, selfClosing: true, end: next + 1 };
    }
    // An attribute follows white space (else its first character would end the name or value).
    if (next === i) return null;
    PLAIN_ATTRIBUTE.lastIndex = next;
    const m = PLAIN_ATTRIBUTE.exec(html);
    if (!m) return null;
    const attr = own(m[1].toLowerCase());
    for (let j = 0; j < attrs.length; j++) if (attrs[j].name === attr) return null; // a duplicate
    attrs.push({ name: attr, value: own(m[2] ?? m[3] ?? m[4] ?? "") });
    i = PLAIN_ATTRIBUTE.lastIndex;
  }
}

/**
 * `text` (a slice of the input) as a string of its own, as the stock tokenizer's `_flushRun`
 * makes it: V8 lets a slice of 13 characters or more share the input's buffer, which would
 * then stay alive as long as the tree holds the slice.
 */
function own(text: string): string {
  return text.length < 13 ? text : ` ${text}`.slice(1);
}

/** The end of a plain end tag (`</name>`, white space before `>`) from its first letter. */
function plainEndTag(html: string, pos: number): PlainTag | null {
  PLAIN_TAG_NAME.lastIndex = pos;
  if (!PLAIN_TAG_NAME.test(html)) return null;
  const name = own(html.slice(pos, PLAIN_TAG_NAME.lastIndex).toLowerCase());
  TAG_SPACE.lastIndex = PLAIN_TAG_NAME.lastIndex;
  TAG_SPACE.test(html);
  const end = TAG_SPACE.lastIndex;
  return html.charCodeAt(end) === GREATER_THAN
    ? { name, attrs: [], selfClosing: false, end }
    : null;
}

/**
 * In the data state, reads the plain tag whose `<` is at `lt` (the current character, or the
 * next one) at once, as the stock states would read it from there: the same token emitted,
 * the preprocessor at its `>` with the same line count, the state the parser leaves. False
 * (nothing read) when the tag is not plain or source locations are on (the stock states
 * record them per attribute).
 */
function plainTagAt(t: Internals, lt: number): boolean {
  if (t.options.sourceCodeLocationInfo) return false;
  const html = t.preprocessor.html;
  const c = html.charCodeAt(lt + 1);
  const end = c === SOLIDUS;
  if (!isAsciiLetter(end ? html.charCodeAt(lt + 2) : c)) return false;
  const tag = end ? plainEndTag(html, lt + 2) : plainStartTag(html, lt + 1);
  if (tag === null) return false;
  if (end) t._createEndTagToken();
  else t._createStartTagToken();
  const token = t.currentToken;
  token.tagName = tag.name;
  if (!end) {
    token.attrs = tag.attrs;
    token.selfClosing = tag.selfClosing;
  }
  const p = t.preprocessor;
  countLines(p, p.pos + 1, tag.end + 1);
  p.pos = tag.end;
  t.state = DATA_STATE;
  t.emitCurrentTagToken();
  return true;
}

const isAsciiLetter = (cp: number) => (cp >= 0x41 && cp <= 0x5a) || (cp >= 0x61 && cp <= 0x7a);

const isSpace = (cp: number) => cp === SPACE || cp === TAB || cp === FORM_FEED || cp === LINE_FEED;

/** parse5's tokenizer, taking runs of ordinary characters at once (see the module doc). */
class SkippingTokenizer extends Tokenizer {}

// After each step of the state machine, the tokenizer pauses once it has read past `pauseAt`
// (the loop only checks between steps: the state is whole there, as between two chunks).
const callState = (Tokenizer.prototype as unknown as Record<string, StateMethod>)._callState;
(SkippingTokenizer.prototype as unknown as Record<string, StateMethod>)._callState = function (
  cp,
) {
  callState.call(this, cp);
  const p = this.preprocessor;
  if (this.active && p.droppedBufferSize + p.pos >= this.pauseAt) this.paused = true;
};

skipAfter("_stateData", (cp) => isSpace(cp) ? SPACE_RUN : TEXT_RUN, true);
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
  (parser.tokenizer as unknown as Internals).pauseAt = Infinity;
  return parser;
}

/** A CR LF pair or a lone CR: one newline of the input stream. */
const NEWLINES = /\r\n?/g;

/**
 * Gives a skipping parser all of `html` at once (the last chunk) and runs it about
 * `sliceChars` characters at a time, awaiting `between()` after each slice (the tokenizer
 * pauses after the step that reads past the slice's end; a run or a tag is one step). The
 * same tokens and tree as writing `html` in chunks, without joining each chunk to the rest of
 * the previous one (parse5 appends a chunk to its unread input: one copy of it per chunk).
 */
export async function writeInSlices<T extends TreeAdapterTypeMap>(
  parser: Parser<T>,
  html: string,
  sliceChars: number,
  between: () => Promise<void>,
): Promise<void> {
  const t = parser.tokenizer as unknown as Internals;
  // The preprocessor reads a CR (with the LF after it) as one LF, a character at a time, so a
  // run stops at each CR: a page with CRLF line ends took a stock step per line. Turned into
  // LF up front (the HTML standard's input stream does exactly this), the tokens and the tree
  // are the same; only source positions would move, and none are recorded then.
  if (!t.options.sourceCodeLocationInfo && html.includes("\r")) {
    html = html.replace(NEWLINES, "\n");
  }
  t.pauseAt = sliceChars;
  t.write(html, true);
  while (t.paused) {
    await between();
    t.pauseAt = t.preprocessor.droppedBufferSize + t.preprocessor.pos + sliceChars;
    t.resume();
  }
}
