/**
 * A column of strings stored as one string, each value followed by a line break: the rule
 * data file's form for its long lists (technology names, pattern sources, literals, one JSON
 * line per technology for its implies...). Loading a module creates every string and array it
 * holds, and the data file held ~50,000, most of which a page never reads; as a few long
 * strings the data loads in about half the time, and a column is split when a value of it is
 * first read (the columns a page reads, not all).
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

/** Random access into a joined column, split on first read. */
export class StringColumn {
  readonly #joined: string;
  #values: string[] | undefined;

  /** Over `joinColumn`'s output. */
  constructor(joined: string) {
    this.#joined = joined;
  }

  /** The number of values. */
  get length(): number {
    return this.#split().length;
  }

  /** Value `i` (undefined past the end). */
  at(i: number): string | undefined {
    return this.#split()[i];
  }

  /** Every value, in order. */
  all(): readonly string[] {
    return this.#split();
  }

  // One native split: far cheaper than finding each value's offsets from JavaScript (27,000
  // values in ~2 ms on an instance's first page, against 3-7 ms).
  #split(): string[] {
    if (!this.#values) {
      this.#values = this.#joined.split(END);
      this.#values.pop(); // after the last END
    }
    return this.#values;
  }
}
