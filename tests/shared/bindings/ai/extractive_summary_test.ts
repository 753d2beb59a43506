/** The embedded offline summariser: deterministic, bounded, built from the text's own sentences. */
import assert from "node:assert/strict";
import {
  clip,
  contentWords,
  EXTRACTIVE_MAX_CHARS,
  extractiveSummary,
  plainProse,
  splitSentences,
} from "../../../../shared/bindings/ai/extractive_summary.ts";
import { readPage } from "../../../../functions/ai-summary/readable.ts";

function article() {
  const html = Deno.readTextFileSync(
    new URL("../../../fixtures/articles/solar_sails.html", import.meta.url),
  );
  return readPage(html);
}

const EXPECTED =
  "A solar sail is a spacecraft propulsion method that uses the pressure of sunlight instead of rocket fuel. " +
  "Because the pressure never stops, however, a solar sail keeps accelerating for months and can eventually reach speeds that chemical rockets cannot match. " +
  "Future missions plan to use solar sails to watch the Sun from unusual orbits, to visit asteroids, and perhaps one day to send tiny probes toward nearby stars.";

Deno.test("extractiveSummary: the fixture article gives the same three sentences every time", async () => {
  const { title, text } = await article();
  const first = extractiveSummary(text, { title });
  assert.equal(first, EXPECTED);
  for (let i = 0; i < 5; i++) assert.equal(extractiveSummary(text, { title }), first);
  assert.ok(first!.length <= EXTRACTIVE_MAX_CHARS);
});

Deno.test("extractiveSummary: every sentence comes from the text, in the text's order", async () => {
  const { title, text } = await article();
  const sentences = splitSentences(text);
  const picked = splitSentences(extractiveSummary(text, { title })!);
  assert.equal(picked.length, 3);
  const positions = picked.map((s) => sentences.indexOf(s));
  assert.ok(positions.every((p) => p >= 0), "only sentences of the text");
  assert.deepEqual([...positions].sort((a, b) => a - b), positions, "in document order");
});

Deno.test("extractiveSummary: stays within the length and sentence bounds it is given", async () => {
  const { title, text } = await article();
  for (const maxChars of [40, 120, 250, 400]) {
    const s = extractiveSummary(text, { title, maxChars })!;
    assert.ok(s.length > 0 && s.length <= maxChars, `${s.length} > ${maxChars}`);
  }
  const one = extractiveSummary(text, { title, maxSentences: 1 })!;
  assert.equal(splitSentences(one).length, 1);
  assert.equal(
    one,
    "A solar sail is a spacecraft propulsion method that uses the pressure of sunlight instead of rocket fuel.",
  );
  const huge = "word ".repeat(5_000) + "and a final sentence that ends here.";
  assert.ok(extractiveSummary(huge)!.length <= EXTRACTIVE_MAX_CHARS);
});

Deno.test("extractiveSummary: empty text is null; text without prose gives its clipped opening", () => {
  assert.equal(extractiveSummary(""), null);
  assert.equal(extractiveSummary("  \n\t "), null);
  assert.equal(extractiveSummary("Hello world"), "Hello world");
  const list = Array.from({ length: 200 }, (_, i) => `item${i}`).join("\n");
  const clipped = extractiveSummary(list, { maxChars: 50 })!;
  assert.ok(clipped.length <= 50 && clipped.startsWith("item0 item1") && clipped.endsWith("…"));
});

Deno.test("extractiveSummary: title words and the opening weigh in; near-duplicates are dropped", () => {
  const text = [
    "Bees are busy insects that visit many flowers every single day.",
    "Gardeners often plant lavender because bees love its purple flowers.",
    "Gardeners often plant lavender because bees love its purple flowers!",
    "Tomatoes need a lot of sun and regular watering to grow well in summer.",
    "Tomatoes grow best when gardeners stake them and water them regularly.",
  ].join("\n");
  const onBees = extractiveSummary(text, { title: "Bees", maxSentences: 2 })!;
  assert.ok(onBees.includes("Bees are busy insects"));
  assert.equal((onBees.match(/lavender/g) ?? []).length <= 1, true, "no repeated sentence");
  const onTomatoes = extractiveSummary(text, { title: "Tomatoes in summer", maxSentences: 1 });
  assert.equal(
    onTomatoes,
    "Tomatoes need a lot of sun and regular watering to grow well in summer.",
  );
});

Deno.test("splitSentences: abbreviations and initials do not end a sentence; lines do", () => {
  assert.deepEqual(
    splitSentences("Dr. Smith met J. Doe, e.g. at noon. Then they left! Why?\nNew line"),
    ["Dr. Smith met J. Doe, e.g. at noon.", "Then they left!", "Why?", "New line"],
  );
});

Deno.test("plainProse: markdown and HTML markup is removed, its words kept", () => {
  const md = "# Title\n\n![badge](https://x/y.svg) See [the docs](https://d.test) and **bold** " +
    "text.\n```js\nconst x = 1;\n```\n- item one\n<img src=x> https://bare.test/url";
  const prose = plainProse(md);
  assert.ok(!/[#*`!\[\]()]|https?:|const x/.test(prose), prose);
  assert.match(prose, /See the docs and bold text\./);
  assert.match(prose, /item one/);
});

Deno.test("contentWords and clip: stop words out; clipping at a word boundary with an ellipsis", () => {
  assert.deepEqual(contentWords("The sail and THE Sun's light"), ["sail", "sun's", "light"]);
  assert.equal(clip("short", 10), "short");
  assert.equal(clip("one two three four", 12), "one two…");
  assert.ok(clip("x".repeat(50), 10).length <= 10);
});
