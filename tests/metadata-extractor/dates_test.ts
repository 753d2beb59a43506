/** Dates to ISO 8601 UTC (functions/metadata-extractor/dates.ts). */
import assert from "node:assert/strict";
import {
  chronoDate,
  ChronoNeeded,
  commonDate,
  dateStart,
  loadChrono,
  toIsoDate,
} from "../../functions/metadata-extractor/dates.ts";

// Every test here but the first reads dates chrono parses.
const chronoLoaded = loadChrono();

Deno.test("chrono loads on first need: ISO and common dates never load it, others wait for it", async () => {
  const dates = new URL("../../functions/metadata-extractor/dates.ts", import.meta.url).href;
  const extract = new URL("../../functions/metadata-extractor/extract.ts", import.meta.url).href;
  // A fresh process: this one loads chrono for the other tests.
  const script = `
    import { ChronoNeeded, toIsoDate } from ${JSON.stringify(dates)};
    import { extractMetadata } from ${JSON.stringify(extract)};
    const out = [toIsoDate("2013-06-07T10:00:00Z"), toIsoDate("Updated: June 7, 2013 - 12:24 AM")];
    try { toIsoDate("July 18, 2013 9:00 PM EDT"); out.push("read"); }
    catch (e) { out.push(e instanceof ChronoNeeded ? "needed" : String(e)); }
    const page = '<html><body><p class="byline">July 18, 2013 9:00 PM EDT</p></body></html>';
    out.push((await extractMetadata(page, "https://example.com/")).publishedTime);
    console.log(JSON.stringify(out));`;
  const run = await new Deno.Command(Deno.execPath(), {
    args: ["eval", script],
    stdout: "piped",
    stderr: "piped",
  }).output();
  assert.ok(run.success, new TextDecoder().decode(run.stderr));
  assert.deepEqual(JSON.parse(new TextDecoder().decode(run.stdout)), [
    "2013-06-07T10:00:00.000Z",
    "2013-06-07T00:24:00.000Z",
    "needed",
    "2013-07-19T01:00:00.000Z", // the extractor loaded chrono and read the byline again
  ]);
  assert.ok(new ChronoNeeded() instanceof Error);
});

Deno.test("toIsoDate: what pages write becomes ISO 8601 in UTC", async () => {
  await chronoLoaded;
  const cases: [string | number, string][] = [
    ["Mon, Jan 7 2019 15:37:00 EST", "2019-01-07T20:37:00.000Z"],
    ["April 06, 2016 12:00 ET", "2016-04-06T16:00:00.000Z"],
    ["2016-04-25 23:37:17", "2016-04-25T23:37:17.000Z"], // no zone: UTC
    ["2013-05-15T14:02:39-04:00", "2013-05-15T18:02:39.000Z"],
    ["2023-11-20", "2023-11-20T00:00:00.000Z"],
    ["Posted: 07/18/2013 10:36 AM", "2013-07-18T10:36:00.000Z"],
    ["9:35 p.m. EDT July 18, 2013", "2013-07-19T01:35:00.000Z"],
    [1373000000, "2013-07-05T04:53:20.000Z"],
    ["1373000000000", "2013-07-05T04:53:20.000Z"],
  ];
  for (const [raw, iso] of cases) assert.equal(toIsoDate(raw), iso, String(raw));
});

Deno.test("toIsoDate: a time alone, a day without a year, relative phrases and junk are null", async () => {
  await chronoLoaded;
  for (
    const raw of ["8:38 pm", "July 17", "Updated 2 hours ago", "yesterday", "By Bob", "", "  "]
  ) {
    assert.equal(toIsoDate(raw), null, raw);
  }
  assert.equal(toIsoDate("1970-01-01"), null, "before the web: a placeholder, not a date");
  assert.equal(toIsoDate(null), null);
});

Deno.test("dateStart: where a byline's date stamp begins", async () => {
  await chronoLoaded;
  assert.equal(dateStart("Jeff Gluck, USA TODAY Sports 4:52 p.m. EDT May 15, 2013"), 29);
  assert.equal(dateStart("Jane Doe"), null);
});

Deno.test("toIsoDate: a line with no month and no numeric date never reaches chrono's answer", async () => {
  await chronoLoaded;
  // Each would be dropped after chrono (no month in its text): the prefilter gives the same null.
  for (const raw of ["12:30 PM", "Day 3 at 10:00", "2 days, 4 hours", "Vol. 12 No. 3"]) {
    assert.equal(toIsoDate(raw), null, raw);
  }
  // Numeric and month-name dates still reach it, in any case and without spaces around.
  assert.equal(toIsoDate("18.07.2013 10:36"), "2013-07-18T10:36:00.000Z");
  assert.equal(toIsoDate("UPDATED:JULY 18, 2013"), "2013-07-18T12:00:00.000Z"); // chrono: noon
  assert.equal(dateStart("by Jane Doe at 12:30"), null);
});

Deno.test("commonDate answers what chrono answers, on every form it takes", async () => {
  await chronoLoaded;
  const labels = [
    "",
    "Updated: ",
    "UPDATED:",
    "Published ",
    "Posted on ",
    "Last updated: ",
    "Date:",
  ];
  const months = ["June", "jun", "Jun.", "SEPT", "Sept.", "September", "may", "Dec.", "february"];
  const days = ["1", "07", "7th", "22nd", "29", "30", "31", "3rd", "1st"];
  const years = ["1989", "1999", "2013", "2020", String(new Date().getUTCFullYear() + 2)];
  const times = [
    "",
    " 12:24 AM",
    " - 12:24 AM",
    ", 3:14 pm",
    " at 10:50 AM",
    " 15:37",
    "-9:05:30 PM",
    " 0:15",
    " 12:00 PM",
    " 13:00 PM",
    " 24:10",
    " 7:45 am",
    " 11:59:59 PM",
    " 9:61",
    ", 10:59am",
  ];
  let x = 11;
  const pick = <T>(list: T[]) => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return list[(x >>> 0) % list.length];
  };
  let taken = 0;
  for (let i = 0; i < 20_000; i++) {
    const comma = pick([",", ""]);
    const line = `${pick(labels)}${pick(months)} ${pick(days)}${comma} ${pick(years)}${
      pick(times)
    }`;
    const common = commonDate(line);
    if (common === undefined) continue;
    taken++;
    assert.equal(common, chronoDate(line), line);
  }
  assert.ok(taken > 5_000, `only ${taken} lines took the common form`);
  // The bench page's stamp, and forms left to chrono (a zone, a weekday, text after).
  assert.equal(commonDate("Updated: June 7, 2013 - 12:24 AM"), "2013-06-07T00:24:00.000Z");
  for (
    const line of [
      "July 18, 2013 9:00 PM EDT",
      "Friday, July 19, 2013",
      "18 July 2013",
      "June 7, 2013 | 4 comments",
      "By Ann, June 7, 2013",
    ]
  ) assert.equal(commonDate(line), undefined, line);
});
