/**
 * The reader on real pages against their hand-marked article bodies (a few pages of the
 * labelled set, copied here from the htmlparser-benchmark corpus so the test needs no bench
 * install): related-story teasers, captions and credits, datelines, follow prompts and author
 * bios stay out, and the story stays in. `deno task bench reader` scores the whole set.
 */
import assert from "node:assert/strict";
import { shingleScore } from "../../bench/extraction_score.ts";
import { readPage } from "../../functions/ai-summary/readable.ts";

const LABELS = new URL("../fixtures/reader_labels/", import.meta.url);
const PAGES = [
  "bbe6bcd413682c74",
  "22c4be85802e9602",
  "952fa459dd93f830",
  "1e62a223bca12add",
  "dd1dcc6ce0d44098",
];

for (const name of PAGES) {
  Deno.test(`reader on a labelled page (${name}): 4-gram F1 >= 0.97, recall >= 0.97`, async () => {
    const html = await Deno.readTextFile(new URL(`pages/${name}.html`, LABELS));
    const expected = await Deno.readTextFile(new URL(`${name}.txt`, LABELS));
    const { text } = await readPage(html);
    const score = shingleScore(text, expected);
    assert.ok(score.recall >= 0.97, `recall ${score.recall.toFixed(3)}`);
    assert.ok(
      score.f1 >= 0.97,
      `F1 ${score.f1.toFixed(3)} (precision ${score.precision.toFixed(3)})`,
    );
  });
}
