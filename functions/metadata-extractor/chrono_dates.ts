/**
 * chrono-node (the date parser metascraper uses too), configured for the dates of a page: a
 * module of its own, which dates.ts loads only when a date is in a form it does not read itself
 * (chrono is a third of the extractor's code, and its first parse compiles every parser's
 * patterns).
 */
import * as chrono from "chrono-node";

/**
 * chrono's English parsers that can only read what is dropped below anyway (a relative phrase,
 * "today", a month with no day, "within 3 days"): left out, because a fresh instance compiles
 * every parser's patterns on its first parse, and these were most of it (the first parse of a
 * short text took 170-330 ms with all of them, 40-115 ms without, on a loaded machine,
 * 2026-11-26). Over 2,481 date-like texts of the 258 htmlparser-benchmark pages and the test
 * fixtures, the dates kept are the same; what differs is a date moved by a relative phrase
 * ("3 days after June 7, 2013"), read now as the date it names.
 */
export const UNUSED_PARSERS = [
  "ENTimeUnitWithinFormatParser",
  "ENTimeUnitAgoFormatParser",
  "ENTimeUnitLaterFormatParser",
  "ENCasualDateParser",
  "ENEndOfCurrentMonthParser",
  "ENRelativeDateFormatParser",
  "ENTimeUnitCasualRelativeFormatParser",
  "ENSlashMonthFormatParser",
  "ENYearMonthNameParser",
];

/**
 * chrono's casual English configuration without UNUSED_PARSERS (told by class name, which the
 * build keeps: `--keep-names`); the whole casual parser if any of them is not found (a renamed
 * class in another chrono version), so that a date is never lost for speed.
 */
export function datesParser(): chrono.Chrono {
  const config = chrono.en.configuration.createCasualConfiguration(false);
  const parsers = config.parsers.filter((p) => !UNUSED_PARSERS.includes(p.constructor.name));
  if (parsers.length !== config.parsers.length - UNUSED_PARSERS.length) return chrono.casual;
  return new chrono.Chrono({ ...config, parsers });
}

/** The parser of the dates chrono reads (made on first use). */
let dates: chrono.Chrono | undefined;

/** Parses `text` as chrono does, with the parser above, a date naming no timezone read as UTC. */
export function parseDates(text: string): chrono.ParsedResult[] {
  return (dates ??= datesParser()).parse(text, { instant: new Date(), timezone: 0 });
}
