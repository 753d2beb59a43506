/**
 * Dates as the page writes them ("Mon, Jan 7 2019 15:37:00 EST", "April 06, 2016 12:00 ET",
 * "2016-04-25 23:37:17") to ISO 8601 in UTC, so clients can sort and compare them. ISO values
 * go through `Date`, the common stamp ("June 7, 2013 - 12:24 AM") through `commonDate`, and
 * everything else through chrono-node (the parser metascraper uses too, loaded on first need:
 * chrono_dates.ts), with a value that names no timezone read as UTC. A time with no day ("8:38 pm"), a day with no
 * year ("July 17") or a relative phrase ("2 hours ago") is not a date of the page: null, where
 * metascraper fills in today's date or this year.
 */
import type { ParsedResult } from "chrono-node";
import { onFirstUse } from "../../shared/contract/lazy.ts";

/** chrono-node's module (chrono_dates.ts), once loaded. */
let chrono: typeof import("./chrono_dates.ts") | undefined;

/**
 * Loads chrono (a chunk of its own in the build). A date in another form than those read here
 * throws CHRONO_NEEDED until it is loaded: the extractor (extract.ts `first`) awaits this and
 * reads that source again, so a page whose dates are all ISO 8601 or the common form never
 * loads it.
 */
export const loadChrono: () => Promise<void> = onFirstUse(async () => {
  chrono = await import("./chrono_dates.ts");
});

/** What the date functions throw when they need chrono and it is not loaded yet. */
export class ChronoNeeded extends Error {
  constructor() {
    super("chrono-node is not loaded (await loadChrono() and read again)");
    this.name = "ChronoNeeded";
  }
}

function parseDates(text: string): ParsedResult[] {
  if (!chrono) throw new ChronoNeeded();
  return chrono.parseDates(text);
}

/** An ISO 8601 date, with or without a time. */
const ISO = /^\d{4}-\d{2}-\d{2}(?:[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?)?$/i;
const MONTH =
  /\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\b|\b\d{1,4}[/.-]\d{1,2}[/.-]\d{1,4}/i;
/**
 * What any text MONTH matches in contains (MONTH without its word boundaries): a line without it
 * holds no date chrono's answer would be kept for, so chrono, the costly step (most of a fresh
 * instance's metadata time on a news page full of "date"/"time" classed elements), is skipped.
 */
const MAYBE_MONTH = /jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec|\d[/.-]\d{1,2}[/.-]\d/i;
/** Longest text searched for a date. */
const MAX_TEXT = 300;
/** Years accepted: the web's. */
const MIN_YEAR = 1990;

/** The ISO 8601 UTC form of a date the page wrote; null when it holds no whole date. */
export function toIsoDate(raw: string | number | null | undefined): string | null {
  if (raw === null || raw === undefined) return null;
  if (typeof raw === "number") return fromEpoch(raw);
  const value = raw.replace(/\s+/g, " ").trim();
  if (value === "") return null;
  if (/^\d{10}(?:\d{3})?$/.test(value)) return fromEpoch(Number(value));
  if (ISO.test(value)) {
    // A space for the T, and a date alone, are read as UTC.
    const t = Date.parse(value.replace(" ", "T") + (value.length === 10 ? "T00:00:00Z" : ""));
    if (!Number.isNaN(t)) return checked(new Date(t));
  }
  // chrono is the costly step: a date stamp has a digit and is short (a container's whole text is not).
  if (!/\d/.test(value) || value.length > MAX_TEXT) return null;
  for (const line of value.split("\n")) {
    if (!MAYBE_MONTH.test(line)) continue;
    const iso = commonDate(line) ?? chronoDate(line);
    if (iso) return iso;
  }
  return null;
}

/** The first whole date chrono reads in `line`, in ISO 8601 UTC; null if none. */
export function chronoDate(line: string): string | null {
  for (const r of parseDates(line)) {
    // A date without a year ("July 17") is not made this year's, as chrono would.
    if (!["day", "month", "year"].every((c) => r.start.isCertain(c as "day"))) continue;
    if (!MONTH.test(r.text)) continue; // "2 hours ago", "yesterday": not a date of the page
    const iso = checked(r.date());
    if (iso) return iso;
  }
  return null;
}

/** chrono's English month names and abbreviations, by month index. */
const MONTH_NAMES: Record<string, number> = {
  january: 0,
  jan: 0,
  february: 1,
  feb: 1,
  march: 2,
  mar: 2,
  april: 3,
  apr: 3,
  may: 4,
  june: 5,
  jun: 5,
  july: 6,
  jul: 6,
  august: 7,
  aug: 7,
  september: 8,
  sep: 8,
  sept: 8,
  october: 9,
  oct: 9,
  november: 10,
  nov: 10,
  december: 11,
  dec: 11,
};

/**
 * The form most date stamps take, "Updated: June 7, 2013 - 12:24 AM": an optional label, a
 * month name, day and year, and an optional time (24 h, or 12 h with AM/PM) after a space, a
 * comma, a spaced dash or "at". Nothing may come after it (a time zone goes to chrono).
 */
const COMMON_DATE = new RegExp(
  "^(?:(?:last updated|updated|published|posted|modified|created|date)(?: on)? ?:? ?)?" +
    `(${Object.keys(MONTH_NAMES).join("|")})\\.? (\\d{1,2})(?:st|nd|rd|th)?,? (\\d{4})` +
    "(?:(?: - |, | at | )(\\d{1,2}):(\\d{2})(?::(\\d{2}))?(?: ?([ap])m)?)?$",
  "i",
);

/**
 * What chrono reads in `line` when it has the common form above (a day alone is at noon, as
 * chrono puts it), computed without it: chrono compiles every parser's patterns on its first
 * parse, most of a fresh instance's date reading (about 20 ms). undefined when the line has
 * another form, or a day the month does not have, or a year outside the web's: chrono reads
 * it. tests/metadata-extractor/dates_test.ts checks the answers equal chrono's on every form
 * this accepts.
 */
export function commonDate(line: string): string | undefined {
  const m = COMMON_DATE.exec(line.trim());
  if (!m) return undefined;
  const [, month, day, year, hour, minute, second, meridiem] = m;
  let h = hour === undefined ? 12 : Number(hour);
  if (meridiem) {
    if (h < 1 || h > 12) return undefined;
    h = (h % 12) + (meridiem.toLowerCase() === "p" ? 12 : 0);
  } else if (h > 23) return undefined;
  if (Number(minute ?? 0) > 59 || Number(second ?? 0) > 59) return undefined;
  const monthIndex = MONTH_NAMES[month.toLowerCase()];
  const d = new Date(
    Date.UTC(Number(year), monthIndex, Number(day), h, Number(minute ?? 0), Number(second ?? 0)),
  );
  // A day the month does not have (June 31): chrono's reading, not ours.
  if (d.getUTCMonth() !== monthIndex || d.getUTCDate() !== Number(day)) return undefined;
  return checked(d) ?? undefined;
}

function fromEpoch(n: number): string | null {
  return checked(new Date(n < 1e11 ? n * 1000 : n));
}

function checked(d: Date): string | null {
  if (Number.isNaN(d.getTime())) return null;
  const year = d.getUTCFullYear();
  return year >= MIN_YEAR && year <= new Date().getUTCFullYear() + 1 ? d.toISOString() : null;
}

/** Where the first whole date in `text` starts (a byline's "Jane Doe, July 18, 2013"); null if none. */
export function dateStart(text: string): number | null {
  if (!/\d/.test(text) || text.length > MAX_TEXT || !MAYBE_MONTH.test(text)) return null;
  for (const r of parseDates(text)) {
    if (
      ["day", "month", "year"].every((c) => r.start.isCertain(c as "day")) && MONTH.test(r.text)
    ) {
      return r.index;
    }
  }
  return null;
}
