/**
 * Which of many literals occur in short texts (script URLs, the page URL), found through one
 * three-character piece of each literal: a table from every three folded characters to the
 * literals keyed by them, each literal checked in full where its piece occurs. It answers as
 * `LiteralIndex` does (same folding, same occurrences) and is built in about a millisecond,
 * where the automaton over the 4,060 script-URL literals took ~70 ms of CPU on the first
 * request of an instance (43k states built by code not yet compiled). On a long text the
 * automaton is faster; on a page's few KiB of URLs both take well under a millisecond.
 *
 * Each literal is keyed by the piece of it that fewest literals were keyed by so far, so that
 * `cdn.` (the start of 203 of them) leads to few checks: the work per character of a text is
 * bounded by the longest list, whatever the text holds.
 */
import { CLASSES, classOf } from "./literal_index.ts";

/** Characters in the piece a literal is keyed by (and the shortest literal allowed). */
const PIECE = 3;
/** Bits of one character's class in a piece's key (CLASSES fit). */
const BITS = 6;
/** A piece's key: its three classes' bits. */
const KEY_MASK = (1 << (BITS * PIECE)) - 1;
/** The end of a list (ids are below it). */
const NONE = 0xffff;
/**
 * Lists per literal: pieces share a list when their keys agree in the table's low bits (a
 * shared list only costs a check). Sixteen per literal keep a text's pieces landing on a list
 * rare (the URL signal's 104 literals need 4 KiB of lists, not the 512 KiB of every key).
 */
const LISTS_PER_LITERAL = 16;

/** A compiled set of literals of at least three characters; `find(text)` tells which occur. */
export class GramIndex {
  /** The number of literals. */
  readonly size: number;
  /** Piece key (its low bits) → first literal of its list (ascending ids), or NONE. */
  private readonly head: Uint16Array;
  /** The low bits of a key that pick its list. */
  private readonly mask: number;
  /** Literal id → next literal of the same list, or NONE. */
  private readonly next: Uint16Array;
  /** Literal id → where its piece starts within it. */
  private readonly offset: Uint8Array;
  /** The literals (checked in full, folded, where their piece occurs). */
  private readonly literals: readonly string[];

  /** Bytes of the typed tables, for memory figures. */
  get tableBytes(): number {
    return [this.head, this.next, this.offset].reduce((n, t) => n + t.byteLength, 0);
  }

  /**
   * Where each literal's piece starts (by id): what a build computes once, so that loading
   * passes it back (`new GramIndex(literals, pieces)`) instead of choosing again.
   */
  get pieces(): number[] {
    return [...this.offset];
  }

  /**
   * Builds the table over `literals` (ids are their indexes); throws on one under 3 chars, or
   * on more literals than a list can number. `pieces`: where each literal's piece starts, as
   * `pieces` gave for the same literals (else chosen here: the piece of each whose list is
   * shortest so far).
   */
  constructor(literals: readonly string[], pieces?: readonly number[]) {
    if (CLASSES > 1 << BITS || literals.length >= NONE) throw new Error("too many literals");
    if (pieces && pieces.length !== literals.length) throw new Error("a piece per literal");
    this.size = literals.length;
    for (const literal of literals) {
      if (literal.length < PIECE) {
        throw new Error(`literal shorter than ${PIECE} characters: ${literal}`);
      }
    }
    let lists = 64;
    while (lists < literals.length * LISTS_PER_LITERAL && lists <= KEY_MASK) lists *= 2;
    const mask = lists - 1;
    const head = new Uint16Array(lists).fill(NONE);
    const next = new Uint16Array(literals.length).fill(NONE);
    const offset = new Uint8Array(literals.length);
    const keyOf = new Int32Array(literals.length);
    if (pieces) {
      // Runs on an instance's first page, before the JIT has compiled it: three characters each.
      for (let id = 0; id < literals.length; id++) {
        const literal = literals[id];
        const at = offset[id] = pieces[id];
        let key = 0;
        for (let i = at; i < at + PIECE; i++) key = (key << BITS) | classOf(literal.charCodeAt(i));
        keyOf[id] = key & mask;
      }
    } else {
      const count = new Uint16Array(lists);
      for (let id = 0; id < literals.length; id++) {
        const literal = literals[id];
        let best = -1;
        let key = 0;
        for (let i = 0; i < literal.length; i++) {
          key = ((key << BITS) | classOf(literal.charCodeAt(i))) & KEY_MASK;
          if (i < PIECE - 1) continue;
          const list = key & mask;
          if (best < 0 || count[list] < count[keyOf[id]]) {
            best = i - (PIECE - 1);
            keyOf[id] = list;
          }
        }
        offset[id] = best;
        count[keyOf[id]]++;
      }
    }
    // Lists in ascending ids: prepend from the last literal to the first.
    for (let id = literals.length - 1; id >= 0; id--) {
      next[id] = head[keyOf[id]];
      head[keyOf[id]] = id;
    }
    this.head = head;
    this.mask = mask;
    this.next = next;
    this.offset = offset;
    this.literals = literals;
  }

  /**
   * The literals that occur in `text`: id → where each occurrence ends (the index after its
   * last character, ascending), ids ascending (as `LiteralIndex.find` answers).
   */
  find(text: string): Map<number, number[]> {
    const { head, mask, next, offset, literals } = this;
    const at = new Map<number, number[]>();
    // The key of the three characters ending at i, rolled along (no copy of the text).
    let key = 0;
    for (let i = 0; i < text.length; i++) {
      key = ((key << BITS) | classOf(text.charCodeAt(i))) & KEY_MASK;
      if (i < PIECE - 1) continue;
      for (let id = head[key & mask]; id !== NONE; id = next[id]) {
        const from = i - (PIECE - 1) - offset[id];
        const literal = literals[id];
        const length = literal.length;
        if (from < 0 || from + length > text.length) continue;
        let k = 0;
        while (
          k < length && classOf(literal.charCodeAt(k)) === classOf(text.charCodeAt(from + k))
        ) k++;
        if (k < length) continue;
        const list = at.get(id);
        if (list) list.push(from + length);
        else at.set(id, [from + length]);
      }
    }
    return new Map([...at].sort((a, b) => a[0] - b[0]));
  }
}
