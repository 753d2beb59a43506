/**
 * Which of many literals occur in a text, and where, in one pass (Aho–Corasick over a small
 * folded alphabet). The rule engine uses it as a prefilter: a rule's regular expression only runs
 * when the literal every match of it must contain is in the text. Folding is lossy on
 * purpose (case-insensitive, rare characters share one class): a false "present" only costs
 * one regex run, never a wrong detection; every true occurrence is reported.
 *
 * Hand-written rather than an npm package: the one maintained candidate measured
 * (modern-ahocorasick 3.3, grapheme-aware) took 40–100 ms on a 330 KiB page; this automaton
 * over char classes takes a few ms, which the route's 25 ms median target needs.
 */

/** Alphabet size: letters and digits, common URL/markup punctuation, one class for the rest. */
export const CLASSES = 48;
const PUNCTUATION = `.-_/:="'<>?#()[]{};,@&!%+* `;

/**
 * Char code → class, over every UTF-16 code unit (64 KiB; anything but ASCII is class 0): the
 * scan looks a class up without a test on the code (see `scan`).
 */
export const CLASS_OF = (() => {
  const table = new Uint8Array(0x10000);
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

/** The folded class of a character code (case-insensitive; rare characters share class 0). */
export function classOf(code: number): number {
  return CLASS_OF[code & 0xffff]; // NaN (past a text's end) is 0: class 0
}

type StateArray = Uint16Array | Int32Array;

/** A compiled set of literals; `find(text)` tells which occur. */
export class LiteralIndex {
  /** The number of literals. */
  readonly size: number;
  /**
   * Every state's full row of transitions (a DFA), by row start (state * CLASSES) + class: the
   * next state's row start, bitwise negated (`~`) when a literal ends there. Row starts rather
   * than states spare the scan a multiplication per character, and the sign its output lookup.
   */
  private readonly rows: Int32Array;
  /**
   * Per state: 0, or 1 + the index of its output list in `outStart`. Output lists are
   * numbered in the order `find` reports them (see there).
   */
  private readonly output: StateArray;
  /** Output list k is `outIds[outStart[k]…outStart[k + 1]]`: the literals that end there. */
  private readonly outStart: Uint32Array;
  private readonly outIds: Uint32Array;
  /**
   * Per output list: the `find` call that last reached it (`epoch`). One table for all calls,
   * since a fresh one per call is a buffer outside the JS heap that V8 frees only at a later GC.
   */
  private readonly seen: Uint32Array;
  private epoch = 0;

  /** Bytes of the typed tables, for memory figures. */
  get tableBytes(): number {
    return [this.rows, this.output, this.outStart, this.outIds, this.seen]
      .reduce((n, t) => n + t.byteLength, 0);
  }

  /**
   * Builds the automaton over `literals` (ids are their indexes), every state with a full row
   * of transitions: one table read per character of a text (the rule set's long-text
   * literals make at most ~10k states; the script-URL ones, 43k, use gram_index.ts).
   */
  constructor(literals: readonly string[]) {
    // Runs once, on the first analysis, mostly before the JIT has compiled it: plain loops over
    // typed arrays, no array per state.
    this.size = literals.length;
    // The trie, its states numbered as they are created (that order ranks the output lists).
    let capacity = 1;
    for (let id = 0; id < literals.length; id++) {
      // The root's row starts are never negated: a literal ends past at least one character.
      if (literals[id].length === 0) throw new Error("an empty literal is not indexed");
      capacity += literals[id].length;
    }
    const firstChild = new Int32Array(capacity).fill(-1);
    const nextSibling = new Int32Array(capacity).fill(-1);
    const classOfState = new Uint8Array(capacity);
    // The literals that end at a state, ascending: a list through `ownNext`.
    const ownFirst = new Int32Array(capacity).fill(-1);
    const ownLast = new Int32Array(capacity);
    const ownNext = new Int32Array(literals.length).fill(-1);
    let created = 1;
    for (let id = 0; id < literals.length; id++) {
      const literal = literals[id];
      let state = 0;
      for (let i = 0; i < literal.length; i++) {
        const c = CLASS_OF[literal.charCodeAt(i)];
        let child = firstChild[state];
        while (child >= 0 && classOfState[child] !== c) child = nextSibling[child];
        if (child < 0) {
          child = created++;
          classOfState[child] = c;
          nextSibling[child] = firstChild[state];
          firstChild[state] = child;
        }
        state = child;
      }
      if (ownFirst[state] < 0) ownFirst[state] = id;
      else ownNext[ownLast[state]] = id;
      ownLast[state] = id;
    }
    // Breadth-first: a state's failure state is shallower, so its row is complete before it is
    // needed. Missing edges of a state become its failure state's, which makes its row a DFA's.
    const bfs = new Int32Array(created);
    for (let head = 0, tail = 1; head < created; head++) {
      for (let child = firstChild[bfs[head]]; child >= 0; child = nextSibling[child]) {
        bfs[tail++] = child;
      }
    }
    const States = created < 0xffff ? Uint16Array : Int32Array;
    // Row starts (see `rows`), written once each: the failure state's row is copied whole.
    const rows = new Int32Array(created * CLASSES);
    const fail = new States(created);
    // Per state: the nearest state along its failure links where a literal ends, or -1; its
    // output is its own literals, then that state's output.
    const suffixOut = new Int32Array(created).fill(-1);
    /** A literal ends at `s`: its own, or one along its failure links. */
    const ends = (s: number) => ownFirst[s] >= 0 || suffixOut[s] >= 0;
    for (let n = 0; n < created; n++) {
      const state = bfs[n];
      const f = fail[state];
      if (state > 0) rows.copyWithin(state * CLASSES, f * CLASSES, (f + 1) * CLASSES);
      for (let child = firstChild[state]; child >= 0; child = nextSibling[child]) {
        const c = classOfState[child];
        // The failure state: where the failure state's own path continues with `c`.
        const next = state === 0 ? 0 : rows[f * CLASSES + c];
        const s = (next < 0 ? ~next : next) / CLASSES;
        fail[child] = s;
        suffixOut[child] = ownFirst[s] >= 0 ? s : suffixOut[s];
        const start = child * CLASSES;
        rows[state * CLASSES + c] = ends(child) ? ~start : start;
      }
    }
    // Output lists in the order of their states' creation, which `find` reports them in.
    const output = new States(created);
    let lists = 0;
    let total = 0;
    for (let state = 0; state < created; state++) {
      if (!ends(state)) continue;
      output[state] = ++lists;
      for (let s = state; s >= 0; s = suffixOut[s]) {
        for (let id = ownFirst[s]; id >= 0; id = ownNext[id]) total++;
      }
    }
    const outStart = new Uint32Array(lists + 1);
    const outIds = new Uint32Array(total);
    for (let state = 0, o = 0; state < created; state++) {
      if (output[state] === 0) continue;
      for (let s = state; s >= 0; s = suffixOut[s]) {
        for (let id = ownFirst[s]; id >= 0; id = ownNext[id]) outIds[o++] = id;
      }
      outStart[output[state]] = o;
    }
    this.rows = rows;
    this.output = output;
    this.outStart = outStart;
    this.outIds = outIds;
    this.seen = new Uint32Array(lists);
  }

  /**
   * The literals that occur in `text`: id → where each occurrence ends (the index after its
   * last character, ascending), so a caller can look near them without searching again. Ids
   * come in the automaton's order, not the text's, so what a caller derives from the order
   * (evidence) does not depend on where things sit on the page.
   */
  find(text: string): Map<number, number[]> {
    const { rows, output, outStart, outIds } = this;
    const seen = this.seen;
    if (this.epoch === 0xffffffff) { // the counter would pass what the table holds
      this.seen.fill(0);
      this.epoch = 0;
    }
    const epoch = ++this.epoch; // find is synchronous: no other call shares the table meanwhile
    const at = new Map<number, number[]>();
    const reached: number[] = [];
    const hits = scan(text, rows, output);
    for (let h = 0; h < hits.length; h++) {
      const i = hits[h];
      const k = hits[++h];
      if (seen[k - 1] !== epoch) {
        seen[k - 1] = epoch;
        reached.push(k - 1);
      }
      for (let o = outStart[k - 1]; o < outStart[k]; o++) {
        const id = outIds[o];
        const list = at.get(id);
        if (list) list.push(i + 1);
        else at.set(id, [i + 1]);
      }
    }
    const found = new Map<number, number[]>();
    for (const k of reached.sort((a, b) => a - b)) {
      for (let o = outStart[k]; o < outStart[k + 1]; o++) {
        const id = outIds[o];
        if (!found.has(id)) found.set(id, at.get(id)!);
      }
    }
    return found;
  }
}

/**
 * Runs the automaton over `text`: where a literal ends, the index and its output list (1 +
 * index), in pairs. The loop alone, in a function of its own: V8 compiles it tighter than with
 * the bookkeeping inside (2.4-2.9 ms against 3.2-3.6 on the 500 KiB bench page). One table read
 * for the class (no `code < 128` test), one for the next row start (no multiplication, no
 * output lookup): 2.9-3.1 ms on that page against 5.2-5.9 for the loop before (state numbers,
 * the test), 3.4-4.2 with the class table alone (alternating in one process, this VM's slow phase).
 */
function scan(text: string, rows: Int32Array, output: StateArray): number[] {
  const hits: number[] = [];
  let row = 0;
  for (let i = 0; i < text.length; i++) {
    const next = rows[row + CLASS_OF[text.charCodeAt(i)]];
    if (next >= 0) row = next;
    else {
      row = ~next;
      hits.push(i, output[row / CLASSES]);
    }
  }
  return hits;
}
