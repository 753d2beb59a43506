/**
 * htmlparser2's tokenizer, moving over plain text and attribute values in one native search
 * instead of one step of its state machine per character, and searching for the character a
 * script, a style, a comment or a declaration ends with (its `fastForwardTo`) with `indexOf`
 * instead of a loop over the characters. With entities decoded, its text and
 * attribute-value states do nothing for a character that is not `<` (or the closing quote)
 * or `&`; here such a run is skipped to the next one of those, which is the same answer. On an
 * instance's first page (code not yet compiled by the JIT) the per-character steps took most
 * of the parse (bench/cold_path.ts). A plain tag (a close tag, or an open tag whose
 * attribute values hold no entity) is read in one step too (`readTag`), with the callbacks
 * the stock states make for it one character at a time; anything else in a tag is handed
 * back to those states where it starts. When the parser's handler does not read the attributes
 * of the tag being opened (lean_parser.ts `ParseInterest`), they are read without callbacks, and
 * the tag is read again with them only if one turns out to be read. htmlparser2's Parser takes a
 * tokenizer class as an option for this; the methods replaced are private in its types, hence
 * the casts.
 * tests/shared/net/skipping_tokenizer_test.ts checks the events equal the stock tokenizer's.
 */
import { QuoteType, Tokenizer, type TokenizerCallbacks as Callbacks } from "htmlparser2";

/** The fields and methods read here (private in htmlparser2's types). */
interface Internals {
  buffer: string;
  index: number;
  offset: number;
  decodeEntities: boolean;
  xmlMode: boolean;
  recognizeSelfClosing: boolean;
  state: number;
  sectionStart: number;
  isSpecial: boolean;
  currentSequence: Uint8Array;
  sequenceIndex: number;
  cbs: Callbacks & {
    onslice?(): number;
    /** The tag being opened may open without attributes (lean_parser.ts `ParseInterest`). */
    skipsAttributes?: boolean;
    /**
     * The values of the attribute named at `start…end` that make its handler read an element
     * (null: any value; undefined: none).
     */
    attributeValues?(start: number, end: number): ReadonlySet<string> | null | undefined;
  };
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
  fastForwardTo(c: number): boolean;
  enterTagBody(): void;
  running: boolean;
  sliceAt: number;
  shouldContinue(): boolean;
  /**
   * Where the next `<` and `&` of `searched` are at or after the last search for each (its
   * length: none): kept, so that searching again from a later place is free until it passes
   * them, and the searches over a buffer add up to one pass.
   */
  ltAt: number;
  ampAt: number;
  searched: string | undefined;
}

const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;

/** What ends a run of a quoted attribute value: its quote or an entity. */
const DOUBLE_QUOTED_STOP = /["&]/g;
const SINGLE_QUOTED_STOP = /['&]/g;

/**
 * Moves the tokenizer to just before the next character `stop` matches (its loop steps onto
 * it), or to the end of the chunk, as the stock `fastForwardTo` does when there is none.
 */
function skipTo(t: Internals, stop: RegExp): void {
  stop.lastIndex = t.index - t.offset + 1;
  const at = stop.test(t.buffer) ? stop.lastIndex - 1 : t.buffer.length;
  t.index = at + t.offset - 1;
}

/**
 * Moves the tokenizer to just before the next `<` or `&` (a tag or an entity ends a run of
 * text), or to the end of the chunk: two native searches, each kept for the next runs
 * (`nextLt`, `nextAmp`), in place of a regular expression run per run of text.
 */
function skipText(t: Internals): void {
  const from = t.index - t.offset + 1;
  t.index = Math.min(nextLt(t, from), nextAmp(t, from)) + t.offset - 1;
}

const stock = Tokenizer.prototype as unknown as Internals;

/** The tokenizer `streamPage` and `parseHtml` run (see the module doc). */
export class SkippingTokenizer extends Tokenizer {
  /** The kept searches for `<` and `&` (see `Internals`), set from the start: one object shape. */
  ltAt = 0;
  ampAt = 0;
  searched: string | undefined = undefined;
  /** Where the next slice check is due (see `shouldContinue`). */
  sliceAt = 0;
}

const skipping = SkippingTokenizer.prototype as unknown as Internals;

/**
 * The loop's test before each step, with a slice check: every so many characters the parser
 * hears `onslice()` (it may pause the parse, or throw), which answers how many characters
 * until the next check (none: never). A whole page is written at once and parsed in slices
 * this way, rather than written in slices: its text stays one flat string, and no tag is cut
 * between two writes.
 */
skipping.shouldContinue = function (this: Internals): boolean {
  const end = this.buffer.length + this.offset;
  if (this.index >= this.sliceAt && this.index < end && this.running) {
    this.sliceAt = this.index + (this.cbs.onslice?.() ?? Infinity);
  }
  return this.running && this.index < end;
};

skipping.stateText = function (this: Internals, c: number): void {
  if (c !== LT && c !== AMP && this.decodeEntities) skipText(this);
  else if (c !== LT || !this.decodeEntities || this.xmlMode || !readTag(this)) {
    stock.stateText.call(this, c);
  }
};

skipping.handleInAttributeValue = function (this: Internals, c: number, quote: number): void {
  if (c !== quote && c !== AMP && this.decodeEntities) {
    skipTo(this, quote === DOUBLE_QUOTE ? DOUBLE_QUOTED_STOP : SINGLE_QUOTED_STOP);
  } else stock.handleInAttributeValue.call(this, c, quote);
};

/** The stock loop's answer in one native search: true with `index` on the next `c`, else false with `index` on the chunk's last character. */
skipping.fastForwardTo = function (this: Internals, c: number): boolean {
  const at = this.buffer.indexOf(String.fromCharCode(c), this.index - this.offset + 1);
  if (at !== -1) {
    this.index = at + this.offset;
    return true;
  }
  this.index = this.buffer.length + this.offset - 1;
  return false;
};

// The states of htmlparser2's tokenizer a tag passes through (its `State`: not exported).
const TEXT = 1;
const IN_SELF_CLOSING_TAG = 4;
const AFTER_CLOSING_TAG_NAME = 7;
const BEFORE_ATTRIBUTE_NAME = 8;
const IN_ATTRIBUTE_NAME = 9;
const AFTER_ATTRIBUTE_NAME = 10;
const BEFORE_ATTRIBUTE_VALUE = 11;
const IN_ATTRIBUTE_VALUE_DQ = 12;
const IN_ATTRIBUTE_VALUE_SQ = 13;
const IN_ATTRIBUTE_VALUE_NQ = 14;

/**
 * Characters of a tag `readTag` reads in one step, past its `<` (real tags are far shorter; a
 * quoted value is searched natively and may go past it). A longer tag goes on in the stock
 * states, between whose steps the parse can pause.
 */
const MAX_TAG_CHARS = 4096;

const SLASH = 0x2f;
const GT = 0x3e;
const EQ = 0x3d;
const SINGLE_QUOTE = 0x27;

/** The stock tokenizer's empty sequence (no special tag under way): a fresh one holds it. */
const EMPTY = (new Tokenizer({}, {} as Callbacks) as unknown as Internals).currentSequence;

/**
 * Tags whose content the stock tokenizer reads as raw text or RCDATA, by the char code of their
 * first letter: their open tags are left to it (it tracks the content's end tag while reading
 * the name).
 */
const SPECIAL: (string[] | undefined)[] = [];
for (const name of ["iframe", "noembed", "noframes", "plaintext", "script", "style"]) {
  (SPECIAL[name.charCodeAt(0)] ??= []).push(name);
}
for (const name of ["title", "textarea", "xmp"]) (SPECIAL[name.charCodeAt(0)] ??= []).push(name);

function isWhitespace(c: number): boolean {
  return c === 0x20 || c === 0x0a || c === 0x09 || c === 0x0c || c === 0x0d;
}

function isEndOfTagSection(c: number): boolean {
  return c === SLASH || c === GT || isWhitespace(c);
}

function isAsciiAlpha(c: number): boolean {
  return (c >= 0x61 && c <= 0x7a) || (c >= 0x41 && c <= 0x5a);
}

/** `buffer[start…end)` is one of `names`, ASCII case-insensitively (as the stock matches them). */
function namedAny(buffer: string, start: number, end: number, names: string[]): boolean {
  for (const name of names) {
    if (end - start !== name.length) continue;
    let k = 0;
    while (k < name.length && (buffer.charCodeAt(start + k) | 0x20) === name.charCodeAt(k)) k++;
    if (k === name.length) return true;
  }
  return false;
}

/** Forgets the kept searches when the buffer is a new one. */
function searching(t: Internals): string {
  const buffer = t.buffer;
  if (t.searched !== buffer) {
    t.searched = buffer;
    t.ltAt = t.ampAt = -1;
  }
  return buffer;
}

/**
 * Where the next `char` at or after `from` is in `buffer` (its length: none), given where the
 * last search for it found it (`found`): kept while it is not behind `from`.
 */
function searchOn(buffer: string, found: number, char: string, from: number): number {
  if (found >= from) return found;
  const at = buffer.indexOf(char, from);
  return at < 0 ? buffer.length : at;
}

/** Where the next `<` at or after `from` is in the current buffer (its length: none). */
function nextLt(t: Internals, from: number): number {
  return t.ltAt = searchOn(searching(t), t.ltAt, "<", from);
}

/** Where the next `&` at or after `from` is in the current buffer (its length: none). */
function nextAmp(t: Internals, from: number): number {
  return t.ampAt = searchOn(searching(t), t.ampAt, "&", from);
}

/** Whether `buffer[start…end)` is one of `values`, compared in place. */
function isOneOf(buffer: string, start: number, end: number, values: ReadonlySet<string>): boolean {
  for (const value of values) {
    if (value.length === end - start && buffer.startsWith(value, start)) return true;
  }
  return false;
}

/**
 * Leaves the rest of a tag to the stock tokenizer: in `state`, with `sectionStart`, its next
 * step reading the character at `at` (in the buffer; its loop steps onto it).
 */
function handOver(t: Internals, state: number, sectionStart: number, at: number): true {
  t.state = state;
  t.sectionStart = sectionStart;
  t.index = t.offset + at - 1;
  return true;
}

/**
 * Reads the tag at `t.index` (a `<` in text) in one step: the same callbacks, with the same
 * offsets, as the stock tokenizer's character-by-character states, for an open tag with
 * attributes whose values hold no entity, or a close tag. False (nothing emitted): not such
 * a tag, the stock tokenizer reads it. A tag that turns out otherwise midway (an entity in a
 * value, the chunk ending, MAX_TAG_CHARS read) is handed over in the state the stock one would
 * be in there.
 */
function readTag(t: Internals): boolean {
  const buffer = t.buffer;
  const offset = t.offset;
  const length = buffer.length;
  const lt = t.index - offset;
  // Where this step stops reading character by character (the stock states, which the parse
  // can pause between, go on from there): one step holds the instance for a bounded time.
  const stop = Math.min(length, lt + MAX_TAG_CHARS);
  let j = lt + 1;
  if (j >= stop) return false;
  let c = buffer.charCodeAt(j);
  const closing = c === SLASH;
  if (closing) {
    if (++j >= stop) return false;
    c = buffer.charCodeAt(j);
  }
  if (!isAsciiAlpha(c)) return false;
  const nameStart = j;
  for (j++; j < stop; j++) if (isEndOfTagSection(buffer.charCodeAt(j))) break;
  // A name the chunk or the step's bound cuts (it may be a raw-text tag's, still being matched).
  if (j >= stop) return false;
  const special = closing ? undefined : SPECIAL[c | 0x20];
  if (special && namedAny(buffer, nameStart, j, special)) return false;
  // What the stock `stateText` does at `<`.
  if (t.index > t.sectionStart) t.cbs.ontext(t.sectionStart, t.index);
  if (closing) {
    t.cbs.onclosetag(offset + nameStart, offset + j);
    if (buffer.charCodeAt(j) !== GT) {
      const gt = buffer.indexOf(">", j + 1);
      if (gt < 0) return handOver(t, AFTER_CLOSING_TAG_NAME, -1, length);
      j = gt;
    }
    return handOver(t, TEXT, offset + j + 1, j + 1);
  }
  if (special && !t.cbs.isInForeignContext?.()) {
    // The stock tokenizer gave up matching a raw-text tag's name.
    t.isSpecial = false;
    t.currentSequence = EMPTY;
    t.sequenceIndex = 0;
  }
  t.cbs.onopentagname(offset + nameStart, offset + j);
  // A tag whose attributes the parser's handler does not read is read without them, unless it
  // turns out to have one the handler reads them by, or to need the stock states: then again.
  return (t.cbs.skipsAttributes === true && readAttributes(t, j, stop, false)) ||
    readAttributes(t, j, stop, true);
}

/**
 * Reads the attributes of the open tag whose name ends at `j`, and its end (`>` or `/>`), as
 * `readTag` (its bound is `stop`). `emit`: each with the stock callbacks, handing the tag
 * over where it turns out otherwise. Without: none reported, nor their values read, and false
 * (nothing done) where the tag needs them after all: an attribute the handler reads elements
 * by, or the stock states to go on (they would report the rest).
 */
function readAttributes(t: Internals, j: number, stop: number, emit: boolean): boolean {
  const buffer = t.buffer;
  const offset = t.offset;
  let c = 0;
  for (;;) {
    // Before an attribute name (the character at `j` not read yet).
    while (j < stop && isWhitespace(c = buffer.charCodeAt(j))) j++;
    if (j >= stop) return emit && handOver(t, BEFORE_ATTRIBUTE_NAME, -1, j);
    if (c === GT) {
      t.cbs.onopentagend(offset + j);
      t.enterTagBody();
      t.sectionStart = offset + j + 1;
      t.index = offset + j;
      return true;
    }
    if (c === SLASH) {
      for (j++; j < stop && isWhitespace(c = buffer.charCodeAt(j));) j++;
      if (j >= stop) return emit && handOver(t, IN_SELF_CLOSING_TAG, -1, j);
      if (c === GT) {
        t.cbs.onselfclosingtag(offset + j);
        t.sectionStart = offset + j + 1;
        if (t.recognizeSelfClosing) {
          t.state = TEXT;
          t.isSpecial = false;
          t.currentSequence = EMPTY;
        } else t.enterTagBody();
        t.index = offset + j;
        return true;
      }
      continue; // read again as before an attribute name
    }
    // An attribute name: its first character whatever it is, then up to `=` or a tag section's end.
    const attribStart = j;
    for (j++; j < stop; j++) {
      c = buffer.charCodeAt(j);
      if (c === EQ || isEndOfTagSection(c)) break;
    }
    if (j >= stop) return emit && handOver(t, IN_ATTRIBUTE_NAME, offset + attribStart, j);
    // Unread: the values that make the handler read this element after all (null: any).
    let values: ReadonlySet<string> | null | undefined;
    if (emit) t.cbs.onattribname(offset + attribStart, offset + j);
    else if ((values = t.cbs.attributeValues!(offset + attribStart, offset + j)) === null) {
      return false;
    }
    const attribEnd = j;
    while (j < stop && isWhitespace(c = buffer.charCodeAt(j))) j++;
    if (j >= stop) return emit && handOver(t, AFTER_ATTRIBUTE_NAME, offset + attribEnd, j);
    if (c !== EQ) {
      if (emit) t.cbs.onattribend(QuoteType.NoValue, offset + attribEnd);
      else if (values?.has("")) return false;
      continue; // `/`, `>` or the next attribute's name
    }
    for (j++; j < stop && isWhitespace(c = buffer.charCodeAt(j));) j++;
    if (j >= stop) return emit && handOver(t, BEFORE_ATTRIBUTE_VALUE, offset + attribEnd, j);
    if (c === DOUBLE_QUOTE || c === SINGLE_QUOTE) {
      const valueStart = j + 1;
      const end = buffer.indexOf(c === DOUBLE_QUOTE ? '"' : "'", valueStart);
      // Unread, a value ends at its quote whatever entities it holds (one the handler reads
      // elements by is read again: it would have to be decoded to compare).
      if (!emit && end >= 0) {
        if (values && (nextAmp(t, valueStart) < end || isOneOf(buffer, valueStart, end, values))) {
          return false;
        }
        j = end + 1;
        continue;
      }
      if (end < 0 || nextAmp(t, valueStart) < end) {
        if (!emit) return false;
        const state = c === DOUBLE_QUOTE ? IN_ATTRIBUTE_VALUE_DQ : IN_ATTRIBUTE_VALUE_SQ;
        return handOver(t, state, offset + valueStart, valueStart);
      }
      t.cbs.onattribdata(offset + valueStart, offset + end);
      t.cbs.onattribend(
        c === DOUBLE_QUOTE ? QuoteType.Double : QuoteType.Single,
        offset + end + 1,
      );
      j = end + 1;
      continue;
    }
    const valueStart = j;
    for (; j < stop; j++) {
      c = buffer.charCodeAt(j);
      if (isWhitespace(c) || c === GT || c === AMP) break;
    }
    if (j >= stop || c === AMP) {
      return emit && handOver(t, IN_ATTRIBUTE_VALUE_NQ, offset + valueStart, j);
    }
    if (emit) {
      t.cbs.onattribdata(offset + valueStart, offset + j);
      t.cbs.onattribend(QuoteType.Unquoted, offset + j);
    } else if (values && isOneOf(buffer, valueStart, j, values)) return false;
  }
}
