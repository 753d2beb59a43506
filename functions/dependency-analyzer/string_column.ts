/**
 * A column of strings stored as one string, each value followed by a line break: the rule
 * data file's form for its long lists (technology names, pattern sources). Loading a module
 * creates every string it holds, and the data file's 7,540 names, their categories and the
 * patterns' sources were ~37,000 strings, most of which a page never reads; as a few long
 * strings they load in about half the time, and a value is cut out when it is first read.
 */

/** What ends each value (no value may contain one: `joinColumn` checks). */
const END = "\n";

/** The column's form in the data file; throws on a value with a line break. */
export function joinColumn(values: readonly string[]): string {
  for (const value of values) {
    if (value.includes(END)) throw new Error(`a line break in a column value: ${value}`);
  }
  return values.map((value) => value + END).join("");
}

/** Random access into a joined column; its offsets are found on first read. */
export class StringColumn {
  readonly #joined: string;
  /** Where value i starts (value i ends one before value i + 1 starts); then the end. */
  #starts: Int32Array | undefined;

  /** Over `joinColumn`'s output. */
  constructor(joined: string) {
    this.#joined = joined;
  }

  /** The number of values. */
  get length(): number {
    return this.#offsets().length - 1;
  }

  /** Value `i` (undefined past the end). */
  at(i: number): string | undefined {
    const starts = this.#offsets();
    if (i < 0 || i >= starts.length - 1) return undefined;
    return this.#joined.slice(starts[i], starts[i + 1] - 1);
  }

  /** Every value, in order. */
  all(): string[] {
    return Array.from({ length: this.length }, (_, i) => this.at(i)!);
  }

  #offsets(): Int32Array {
    if (this.#starts) return this.#starts;
    const joined = this.#joined;
    let count = 0;
    for (let at = joined.indexOf(END); at >= 0; at = joined.indexOf(END, at + 1)) count++;
    const starts = new Int32Array(count + 1);
    for (let i = 1, at = 0; i <= count; i++) {
      at = joined.indexOf(END, at) + 1;
      starts[i] = at;
    }
    return this.#starts = starts;
  }
}
