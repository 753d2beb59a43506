/**
 * Which of many literals occur in a text, and where, in one pass (Aho–Corasick over a small
 * folded alphabet). The rule engine uses it as a prefilter: a rule's regular expression only runs
 * when the literal every match of it must contain is in the text. Folding is lossy on
 * purpose (case-insensitive, rare characters share one class): a false "present" only costs
 * one regex run, never a wrong detection; every true occurrence is reported.
 *
 * Hand-written rather than an npm package: the one maintained candidate measured
 * (modern-ahocorasick 3.3, grapheme-aware) took 40–100 ms on a 330 KiB page; this DFA over
 * char classes takes a few ms, which the 25 ms median needs.
 */

/** Alphabet size: letters and digits, common URL/markup punctuation, one class for the rest. */
const CLASSES = 48;
const PUNCTUATION = `.-_/:="'<>?#()[]{};,@&!%+* `;

/** Char code (< 128) → class; anything else is class 0. */
const CLASS_OF = (() => {
  const table = new Uint8Array(128);
  for (let c = 0; c < 26; c++) {
    table[97 + c] = 1 + c;
    table[65 + c] = 1 + c;
  }
  for (let d = 0; d < 10; d++) table[48 + d] = 27 + d;
  for (let i = 0; i < PUNCTUATION.length && 37 + i < CLASSES; i++) {
    table[PUNCTUATION.charCodeAt(i)] = 37 + i;
  }
  return table;
})();

function classOf(code: number): number {
  return code < 128 ? CLASS_OF[code] : 0;
}

const NONE: readonly number[] = [];

/** A compiled set of literals; `find(text)` tells which occur. */
export class LiteralIndex {
  /** Dense transition table of the automaton: state * CLASSES + class → state. */
  private readonly next: Uint16Array | Int32Array;
  /** Per state: the literal ids that end there (own and along the suffix links). */
  private readonly outputs: (readonly number[])[];
  /** Per state: 1 when some literal ends there (a cheap test in the scan). */
  private readonly ends: Uint8Array;
  /** The number of literals. */
  readonly size: number;
  /**
   * Per state: the `find` call that last reached it (`epoch`). One table for all calls, since
   * a fresh one per call is a buffer outside the JS heap that V8 frees only at a later GC.
   */
  private readonly seen: Uint32Array;
  private epoch = 0;

  /** Bytes of the typed tables (transitions and end marks), for memory figures. */
  get tableBytes(): number {
    return this.next.byteLength + this.ends.byteLength + this.seen.byteLength;
  }

  /** Builds the automaton over `literals` (ids are their indexes). */
  constructor(literals: readonly string[]) {
    this.size = literals.length;
    // At most one state per literal character, plus the root: one table, allocated once.
    const capacity = 1 + literals.reduce((n, l) => n + l.length, 0);
    const next = capacity < 0xffff
      ? new Uint16Array(capacity * CLASSES)
      : new Int32Array(capacity * CLASSES);
    // 0 means "no edge" while building the trie (the root is never an edge's target).
    // Most states end no literal: they share one empty list (tens of thousands of states).
    const own: (readonly number[])[] = [NONE];
    let states = 1;
    literals.forEach((literal, id) => {
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const at = state * CLASSES + classOf(literal.charCodeAt(i));
        if (next[at] === 0) {
          next[at] = states++;
          own.push(NONE);
        }
        state = next[at];
      }
      own[state] = [...own[state], id];
    });
    const fail = new Int32Array(states);
    const outputs = own;
    // Breadth-first: each state's failure state is complete before its children need it;
    // missing edges become the failure state's edge, which makes the table a DFA.
    const queue: number[] = [];
    for (let c = 0; c < CLASSES; c++) if (next[c] !== 0) queue.push(next[c]);
    for (let head = 0; head < queue.length; head++) {
      const state = queue[head];
      const f = fail[state];
      if (outputs[f].length > 0) outputs[state] = [...outputs[state], ...outputs[f]];
      for (let c = 0; c < CLASSES; c++) {
        const at = state * CLASSES + c;
        const s = next[at];
        if (s === 0) {
          next[at] = next[f * CLASSES + c];
        } else {
          fail[s] = next[f * CLASSES + c];
          queue.push(s);
        }
      }
    }
    this.next = next.slice(0, states * CLASSES);
    this.outputs = outputs;
    this.ends = Uint8Array.from(outputs, (o) => (o.length > 0 ? 1 : 0));
    this.seen = new Uint32Array(states);
  }

  /**
   * The literals that occur in `text`: id → where each occurrence ends (the index after its
   * last character, ascending), so a caller can look near them without searching again. Ids
   * come in the automaton's order, not the text's, so what a caller derives from the order
   * (evidence) does not depend on where things sit on the page.
   */
  find(text: string): Map<number, number[]> {
    const next = this.next;
    const outputs = this.outputs;
    const ends = this.ends;
    const seen = this.seen;
    if (this.epoch === 0xffffffff) { // the counter would pass what the table holds
      this.seen.fill(0);
      this.epoch = 0;
    }
    const epoch = ++this.epoch; // find is synchronous: no other call shares the table meanwhile
    const at = new Map<number, number[]>();
    let state = 0;
    for (let i = 0; i < text.length; i++) {
      const code = text.charCodeAt(i);
      state = next[state * CLASSES + (code < 128 ? CLASS_OF[code] : 0)];
      if (ends[state] === 0) continue;
      seen[state] = epoch;
      for (const id of outputs[state]) {
        const list = at.get(id);
        if (list) list.push(i + 1);
        else at.set(id, [i + 1]);
      }
    }
    const found = new Map<number, number[]>();
    for (let s = 0; s < seen.length; s++) {
      if (seen[s] === epoch) {
        for (const id of outputs[s]) if (!found.has(id)) found.set(id, at.get(id)!);
      }
    }
    return found;
  }
}
