/** chrono-node's configuration for page dates (functions/metadata-extractor/chrono_dates.ts). */
import assert from "node:assert/strict";
import * as chrono from "chrono-node";
import { datesParser, UNUSED_PARSERS } from "../../functions/metadata-extractor/chrono_dates.ts";

Deno.test("the dates parser is chrono's casual English one without the parsers of unused readings", () => {
  const all = chrono.en.configuration.createCasualConfiguration(false).parsers
    .map((p) => p.constructor.name);
  // Every name left out is one of chrono's (else the whole casual parser would be used).
  for (const name of UNUSED_PARSERS) assert.ok(all.includes(name), name);
  const parser = datesParser();
  assert.notEqual(parser, chrono.casual);
  const instant = new Date("2026-11-26T08:00:00Z");
  const read = (p: chrono.Chrono, text: string) =>
    p.parse(text, { instant, timezone: 0 }).map((r) => [r.index, r.text, r.date().toISOString()]);
  for (
    const text of [
      "Updated: June 7, 2013 - 12:24 AM",
      "Monday, June 7, 2013 3:04 PM EST",
      "7 June 2013 14:00 BST",
      "Sat, 08 Jun 2013 04:12:00 GMT",
      "06/07/2013",
      "2013-06-07T10:00:00+02:00",
      "Jan. 5, 2019 at 3:30 p.m. EST",
      "at the end of July 2008",
    ]
  ) {
    assert.deepEqual(read(parser, text), read(chrono.casual, text), text);
  }
});
