/**
 * htmlparser2's tokenizer, moving over plain text and attribute values in one native search
 * instead of one step of its state machine per character, and searching for the character a
 * script, a style, a comment or a declaration ends with (its `fastForwardTo`) with `indexOf`
 * instead of a loop over the characters. With entities decoded, its text and
 * attribute-value states do nothing for a character that is not `<` (or the closing quote)
 * or `&`; here such a run is skipped to the next one of those, which is the same answer. On an
 * instance's first page (code not yet compiled by the JIT) the per-character steps took most
 * of the parse (bench/cold_path.ts). htmlparser2's Parser takes a tokenizer class as an
 * option for this; the two methods replaced are private in its types, hence the casts.
 * tests/shared/net/skipping_tokenizer_test.ts checks the events equal the stock tokenizer's.
 */
import { Tokenizer } from "htmlparser2";

/** The fields and methods read here (private in htmlparser2's types). */
interface Internals {
  buffer: string;
  index: number;
  offset: number;
  decodeEntities: boolean;
  stateText(c: number): void;
  handleInAttributeValue(c: number, quote: number): void;
  fastForwardTo(c: number): boolean;
}

const LT = 0x3c;
const AMP = 0x26;
const DOUBLE_QUOTE = 0x22;

/** What ends a run of text: a tag or an entity. */
const TEXT_STOP = /[<&]/g;
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

const stock = Tokenizer.prototype as unknown as Internals;

/** The tokenizer `streamPage` and `parseHtml` run (see the module doc). */
export class SkippingTokenizer extends Tokenizer {}

const skipping = SkippingTokenizer.prototype as unknown as Internals;

skipping.stateText = function (this: Internals, c: number): void {
  if (c !== LT && c !== AMP && this.decodeEntities) skipTo(this, TEXT_STOP);
  else stock.stateText.call(this, c);
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
