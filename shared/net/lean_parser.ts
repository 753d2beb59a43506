/**
 * htmlparser2's Parser (HTML mode) with its per-tag work cut down, emitting exactly its events:
 * the open-element stack grows at its end (push/pop, where the stock parser unshifts and
 * shifts the whole array per tag), a tag's void test is made once, the foreign-content test is
 * one map lookup, a slice inside one written chunk is taken directly, and a page's bounds
 * (depth, node count: `ParseBounds`) are counted where the events are emitted instead of in a
 * wrapping handler (a call layer per event). On an instance's first page these methods run in
 * V8's interpreter, where every call and lookup per tag counts (bench/cold_path.ts).
 * The replaced methods are private in htmlparser2's types, hence the casts; the events are
 * checked equal to the stock parser's by tests/shared/net/lean_parser_test.ts (random markup
 * at every chunking) and bench/skipping_tokenizer_test.ts (258 real pages).
 */
import { type Handler, Parser, type ParserOptions } from "htmlparser2";
import { knownName, startKey } from "./known_names.ts";

/** The bounds counted during a parse, as domhandler would build the tree; over one throws. */
export interface ParseBounds {
  /** Deepest element nesting. */
  maxDepth: number;
  /** Most nodes (elements, texts, comments; adjacent text is one node). */
  maxNodes: number;
  /** Thrown when a bound is passed: `limit` names it. */
  refuse(limit: "maxDepth" | "maxNodes"): never;
  /** Characters between two calls of `slice` (absent: no calls). */
  sliceChars?: number;
  /** Called every `sliceChars` characters: true pauses the parse (`resume()` goes on). */
  slice?(): boolean;
}

/**
 * What a handler reads of a page when it reads little of it: the parse may then leave the rest
 * out. The analyzer reads the attributes of a few elements and the text of scripts and styles;
 * reading every attribute value and text of the 500 KiB bench page took ~20% of its time.
 * Elements, texts and their counts (the bounds) are the same either way.
 */
export interface ParseInterest {
  /** Tags whose elements open with all their attributes. */
  attributesOf: ReadonlySet<string>;
  /**
   * Attribute names (lowercase), each with the values that make an element read (null: any
   * value): an element with one of them opens with all its attributes too. Any other element
   * may open with none.
   */
  attributesWith: ReadonlyMap<string, ReadonlySet<string> | null>;
  /** Tags whose text is read (all text inside one); other text may not be emitted. */
  textOf: ReadonlySet<string>;
}

/** A handler, with what it reads when not everything (`ParseInterest`). */
export type InterestedHandler = Partial<Handler> & { interest?: ParseInterest };

const UNBOUNDED: ParseBounds = {
  maxDepth: Infinity,
  maxNodes: Infinity,
  refuse: () => {
    throw new Error("unreachable");
  },
};

/** Tags the stock parser treats as void (its list: not exported). */
const VOID = new Set([
  "area",
  "base",
  "basefont",
  "br",
  "col",
  "command",
  "embed",
  "frame",
  "hr",
  "img",
  "input",
  "isindex",
  "keygen",
  "link",
  "meta",
  "param",
  "source",
  "track",
  "wbr",
]);

const NONE = 0;
const SVG = 1;
const MATHML = 2;

/** Tags that open a foreign context (svg, math) or an HTML integration point, with its kind. */
const CONTEXT = new Map<string, number>([
  ["svg", SVG],
  ["math", MATHML],
  ["mi", NONE],
  ["mo", NONE],
  ["mn", NONE],
  ["ms", NONE],
  ["mtext", NONE],
  ["annotation-xml", NONE],
  ["foreignObject", NONE],
  ["desc", NONE],
  ["title", NONE],
]);

const formTags = new Set([
  "input",
  "option",
  "optgroup",
  "select",
  "button",
  "datalist",
  "textarea",
]);
const pTag = new Set(["p"]);
const headingTags = new Set(["h1", "h2", "h3", "h4", "h5", "h6", "p"]);
const tableSectionTags = new Set(["thead", "tbody"]);
const ddtTags = new Set(["dd", "dt"]);
const rtpTags = new Set(["rt", "rp"]);
/** The stock parser's implied closes: opening the key closes open elements in its set. */
const OPEN_IMPLIES_CLOSE = new Map<string, Set<string>>([
  ["tr", new Set(["tr", "th", "td"])],
  ["th", new Set(["th"])],
  ["td", new Set(["thead", "th", "td"])],
  ["body", new Set(["head", "link", "script"])],
  ["a", new Set(["a"])],
  ["li", new Set(["li"])],
  ["p", pTag],
  ["h1", headingTags],
  ["h2", headingTags],
  ["h3", headingTags],
  ["h4", headingTags],
  ["h5", headingTags],
  ["h6", headingTags],
  ["select", formTags],
  ["input", formTags],
  ["output", formTags],
  ["button", formTags],
  ["datalist", formTags],
  ["textarea", formTags],
  ["option", new Set(["option"])],
  ["optgroup", new Set(["optgroup", "option"])],
  ["dd", ddtTags],
  ["dt", ddtTags],
  ...["address", "article", "aside", "blockquote", "details", "div", "dl", "fieldset"]
    .map((t) => [t, pTag] as [string, Set<string>]),
  ...["figcaption", "figure", "footer", "form", "header", "hr", "main", "nav", "ol", "pre"]
    .map((t) => [t, pTag] as [string, Set<string>]),
  ...["section", "table", "ul"].map((t) => [t, pTag] as [string, Set<string>]),
  ["rt", rtpTags],
  ["rp", rtpTags],
  ["tbody", tableSectionTags],
  ["tfoot", tableSectionTags],
]);

/** The stock parser's fields and methods used here (private in htmlparser2's types). */
interface Internals {
  cbs: Partial<Handler>;
  startIndex: number;
  endIndex: number;
  openTagStart: number;
  tagname: string;
  attribname: string;
  attribvalue: string;
  attribs: Record<string, string> | null;
  /** Open elements, innermost LAST here (first in the stock parser). */
  stack: string[];
  foreignContext: number[];
  buffers: string[];
  bufferOffset: number;
  recognizeSelfClosing: boolean;
  lowerCaseAttributeNames: boolean;
  options: ParserOptions;
  readTagName(start: number, endIndex: number): string;
  onattribname(start: number, endIndex: number): void;
  emitOpenTag(name: string): void;
  endOpenTag(isImplied: boolean): void;
  popElement(implied: boolean): void;
  closeCurrentTag(isOpenImplied: boolean): void;
  getSlice(start: number, end: number): string;
  getInstructionName(value: string): string;
  isInForeignContext(): boolean;
  reset(): void;
  pause(): void;
  // Lean state
  /** The tag being opened is void (set by emitOpenTag for endOpenTag). */
  voidTag: boolean;
  bounds: ParseBounds;
  depth: number;
  nodes: number;
  /** The last node was text (or a comment): more of it extends that node. */
  inText: boolean;
  inComment: boolean;
  /** The handler's `interest`, if any. */
  interest: ParseInterest | undefined;
  /**
   * 1 at the `startKey` (known_names.ts) of each `interest.attributesWith` name: most names
   * are ruled out by it (null: none is).
   */
  wantedStarts: Uint8Array | null;
  /** The tag being opened may open without attributes (read by the skipping tokenizer). */
  skipsAttributes: boolean;
  /** How many open elements are of `interest.textOf`. */
  textOpen: number;
}

/**
 * The parser `streamHtmlBounded` and `parseHtml` run: htmlparser2's Parser in HTML mode (tag
 * names lowercased), the same events to `cbs`, `bounds` checked as they are emitted; with an
 * `interest`, only what it names in full (tests/shared/net/parse_interest_test.ts).
 */
export class LeanParser extends Parser {
  constructor(
    cbs: Partial<Handler> | null,
    options: ParserOptions = {},
    bounds: ParseBounds = UNBOUNDED,
    interest?: ParseInterest,
  ) {
    if (options.xmlMode || options.lowerCaseTags === false) {
      throw new Error("LeanParser parses HTML with lowercased tag names only");
    }
    super(cbs, options);
    const self = this as unknown as Internals;
    self.voidTag = false;
    self.bounds = bounds;
    self.depth = self.nodes = 0;
    self.inText = self.inComment = false;
    self.interest = interest;
    self.skipsAttributes = false;
    self.textOpen = 0;
    // A name not starting with ASCII has no key: then no name is ruled out by its start.
    const keys = [...interest?.attributesWith.keys() ?? []]
      .map((name) => startKey(name.length, name.charCodeAt(0)));
    const wanted = keys.includes(-1) ? null : new Uint8Array(Math.max(0, ...keys) + 1);
    for (const key of keys) if (wanted) wanted[key] = 1;
    self.wantedStarts = wanted;
  }
}

const stock = Parser.prototype as unknown as Internals;
const lean = LeanParser.prototype as unknown as Internals & Record<string, unknown>;

/** Counts a new node (bounds' `maxNodes`). */
function countNode(p: Internals): void {
  p.inText = p.inComment = false;
  if (++p.nodes > p.bounds.maxNodes) p.bounds.refuse("maxNodes");
}

/** Emits text (null: counted, not emitted): one node with the text just before it. */
function emitText(p: Internals, data: string | null): void {
  if (!p.inText) countNode(p);
  p.inText = true;
  if (data !== null) p.cbs.ontext?.(data);
}

/** Whether the handler reads the text that comes now (see `ParseInterest.textOf`). */
function readsText(p: Internals): boolean {
  return p.interest === undefined || p.textOpen > 0;
}

/** Emits an open tag: a node, one level deeper (bounds' `maxNodes`, `maxDepth`). */
function emitOpen(p: Internals, name: string, attribs: Record<string, string>, implied: boolean) {
  countNode(p);
  if (++p.depth > p.bounds.maxDepth) p.bounds.refuse("maxDepth");
  p.cbs.onopentag?.(name, attribs, implied);
}

/** Emits a close tag (depth back one). */
function emitClose(p: Internals, name: string, implied: boolean): void {
  p.depth--;
  p.inText = p.inComment = false;
  p.cbs.onclosetag?.(name, implied);
}

lean.ontext = function (this: Internals, start: number, endIndex: number): void {
  const data = readsText(this) ? this.getSlice(start, endIndex) : null;
  this.endIndex = endIndex - 1;
  emitText(this, data);
  this.startIndex = endIndex;
};

lean.ontextentity = function (this: Internals, cp: number, endIndex: number): void {
  this.endIndex = endIndex - 1;
  emitText(this, readsText(this) ? String.fromCodePoint(cp) : null);
  this.startIndex = endIndex;
};

lean.readTagName = function (this: Internals, start: number, endIndex: number): string {
  // No foreign ancestor (the stock parser's common case): lowercased, `image` read as `img`.
  if (this.foreignContext.length === 1) {
    const name = lowerName(this, start, endIndex);
    return name === "image" ? "img" : name;
  }
  return stock.readTagName.call(this, start, endIndex);
};

lean.onattribname = function (this: Internals, start: number, endIndex: number): void {
  if (!this.lowerCaseAttributeNames) return stock.onattribname.call(this, start, endIndex);
  this.startIndex = start;
  this.attribname = lowerName(this, start, endIndex);
};

/**
 * The name at `start…end` lowercased: the held string of a known name (`knownName`) within the
 * first buffer still held, else a lowercased slice.
 */
function lowerName(p: Internals, start: number, end: number): string {
  const buffer = p.buffers[0];
  const from = start - p.bufferOffset;
  const to = end - p.bufferOffset;
  const known = from >= 0 && to <= buffer.length ? knownName(buffer, from, to) : undefined;
  return known ?? p.getSlice(start, end).toLowerCase();
}

/**
 * What the handler reads elements by when they have the attribute named at `start…end`
 * (`ParseInterest.attributesWith`): the values that make it read them, null for any value,
 * undefined when it does not read them by that name. Asked by the skipping tokenizer while it
 * skips a tag's attributes.
 */
lean.attributeValues = function (
  this: Internals,
  start: number,
  end: number,
): ReadonlySet<string> | null | undefined {
  const buffer = this.buffers[0];
  const from = start - this.bufferOffset;
  const wanted = this.wantedStarts;
  if (wanted && from >= 0 && from < buffer.length) {
    const key = startKey(end - start, buffer.charCodeAt(from));
    if (key < 0 || key >= wanted.length || wanted[key] === 0) return undefined;
  }
  return this.interest!.attributesWith.get(lowerName(this, start, end));
};

lean.emitOpenTag = function (this: Internals, name: string): void {
  this.openTagStart = this.startIndex;
  this.skipsAttributes = this.interest !== undefined && !this.interest.attributesOf.has(name);
  this.tagname = name;
  const stack = this.stack;
  // A second <form> while one is open is ignored (as the stock parser does).
  if (name === "form" && stack.includes("form")) {
    this.tagname = "";
    this.voidTag = false;
    return;
  }
  const impliesClose = OPEN_IMPLIES_CLOSE.get(name);
  if (impliesClose) {
    while (stack.length > 0 && impliesClose.has(stack[stack.length - 1])) this.popElement(true);
  }
  const isVoid = VOID.has(name);
  this.voidTag = isVoid;
  if (!isVoid) {
    stack.push(name);
    if (this.interest?.textOf.has(name)) this.textOpen++;
    const context = CONTEXT.get(name);
    if (context !== undefined) this.foreignContext.unshift(context);
  }
  this.cbs.onopentagname?.(name);
  this.attribs = {};
};

lean.endOpenTag = function (this: Internals, isImplied: boolean): void {
  this.startIndex = this.openTagStart;
  const name = this.tagname;
  const attribs = this.attribs;
  if (attribs) {
    emitOpen(this, name, attribs, isImplied);
    this.attribs = null;
  }
  if (this.voidTag) {
    this.voidTag = false;
    emitClose(this, name, true);
  }
  this.tagname = "";
};

lean.onclosetag = function (this: Internals, start: number, endIndex: number): void {
  this.endIndex = endIndex;
  const name = this.readTagName(start, endIndex);
  if (!VOID.has(name)) {
    const stack = this.stack;
    const pos = stack.lastIndexOf(name);
    if (pos !== -1) {
      while (stack.length - 1 > pos) this.popElement(true);
      this.popElement(false);
    } else if (name === "p") {
      // Implicit open before close
      this.emitOpenTag("p");
      this.closeCurrentTag(true);
    }
  } else if (name === "br") {
    // `</br>` is an implied `<br>`, closed at once.
    this.cbs.onopentagname?.("br");
    emitOpen(this, "br", {}, true);
    emitClose(this, "br", false);
  }
  this.startIndex = endIndex + 1;
};

lean.popElement = function (this: Internals, implied: boolean): void {
  const element = this.stack.pop()!;
  if (CONTEXT.has(element)) this.foreignContext.shift();
  if (this.interest?.textOf.has(element)) this.textOpen--;
  emitClose(this, element, implied);
};

lean.closeCurrentTag = function (this: Internals, isOpenImplied: boolean): void {
  const name = this.tagname;
  this.endOpenTag(isOpenImplied);
  // Self-closing tags will be on the top of the stack
  const stack = this.stack;
  if (stack[stack.length - 1] === name) this.popElement(!isOpenImplied);
};

lean.onattribend = function (this: Internals, quote: number, endIndex: number): void {
  this.endIndex = endIndex;
  const name = this.attribname;
  const value = this.attribvalue;
  const onattribute = this.cbs.onattribute;
  if (onattribute) {
    // QuoteType: Double 3, Single 2, NoValue 0, Unquoted 1
    onattribute.call(
      this.cbs,
      name,
      value,
      quote === 3 ? '"' : quote === 2 ? "'" : quote === 0 ? undefined : null,
    );
  }
  const attribs = this.attribs;
  if (attribs && !Object.hasOwn(attribs, name)) attribs[name] = value;
  this.attribvalue = "";
};

lean.ondeclaration = function (this: Internals, start: number, endIndex: number): void {
  this.endIndex = endIndex;
  const value = this.getSlice(start, endIndex);
  countNode(this);
  // In HTML mode with lowercased names a declaration is the doctype.
  this.cbs.onprocessinginstruction?.("!doctype", `!${value}`);
  this.startIndex = endIndex + 1;
};

lean.onprocessinginstruction = function (this: Internals, start: number, endIndex: number): void {
  this.endIndex = endIndex;
  const value = this.getSlice(start, endIndex);
  countNode(this);
  if (this.cbs.onprocessinginstruction) {
    this.cbs.onprocessinginstruction(`?${this.getInstructionName(value)}`, `?${value}`);
  }
  this.startIndex = endIndex + 1;
};

/** Emits a comment: a node of its own. */
function emitComment(p: Internals, data: string): void {
  if (!p.inComment) countNode(p);
  p.cbs.oncomment?.(data);
  p.inComment = false;
  p.cbs.oncommentend?.();
}

lean.oncomment = function (this: Internals, start: number, endIndex: number, offset: number) {
  this.endIndex = endIndex;
  emitComment(this, this.getSlice(start, endIndex - offset));
  this.startIndex = endIndex + 1;
};

lean.oncdata = function (this: Internals, start: number, endIndex: number, offset: number) {
  this.endIndex = endIndex;
  const value = this.getSlice(start, endIndex - offset);
  if (this.options.recognizeCDATA) {
    countNode(this);
    this.inText = true;
    this.cbs.oncdatastart?.();
    this.cbs.ontext?.(value);
    this.inText = false;
    this.cbs.oncdataend?.();
  } else if (this.isInForeignContext()) {
    emitText(this, value);
  } else {
    emitComment(this, `[CDATA[${value}]]`);
  }
  this.startIndex = endIndex + 1;
};

lean.onend = function (this: Internals): void {
  // Every element still open closes, innermost first, at the last event's start.
  if (this.cbs.onclosetag) {
    this.endIndex = this.startIndex;
    const stack = this.stack;
    for (let i = stack.length - 1; i >= 0; i--) emitClose(this, stack[i], true);
  }
  this.cbs.onend?.();
};

/** The tokenizer's slice check (shared/net/skipping_tokenizer.ts): pauses when `slice` says. */
lean.onslice = function (this: Internals): number {
  const bounds = this.bounds;
  if (!bounds.slice) return Infinity;
  if (bounds.slice()) this.pause();
  return bounds.sliceChars ?? Infinity;
};

lean.reset = function (this: Internals): void {
  stock.reset.call(this);
  this.depth = this.nodes = this.textOpen = 0;
  this.inText = this.inComment = this.voidTag = false;
};

lean.getSlice = function (this: Internals, start: number, end: number): string {
  if (start === end) return "";
  const buffer = this.buffers[0];
  const from = start - this.bufferOffset;
  // Within the first buffer still held: one slice (else the stock walk over the buffers).
  if (from < buffer.length && end - this.bufferOffset <= buffer.length) {
    return buffer.slice(from, end - this.bufferOffset);
  }
  return stock.getSlice.call(this, start, end);
};
