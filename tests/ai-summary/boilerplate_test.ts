/** The reader's precision pass: blocks beside the story go, the story stays. */
import assert from "node:assert/strict";
import type { Element } from "domhandler";
import { isDateLine, removeBoilerplate } from "../../functions/ai-summary/boilerplate.ts";
import { blockText } from "../../functions/ai-summary/readable.ts";
import { bodyOf, parseTree } from "../../functions/ai-summary/tree.ts";

const STORY = [
  "The council voted on Tuesday to rebuild the old harbour wall, which storms breached twice last winter, at a cost of four million pounds.",
  "Work starts in spring and should end before the autumn gales, the council's engineer said, adding that the road would stay open throughout.",
  "Fishermen welcomed the decision but asked for a second slipway, which the plan does not include.",
];

async function clean(inner: string): Promise<string> {
  const body = bodyOf(await parseTree(`<body><div>${inner}</div></body>`)) as Element;
  const article = body.children.find((c) => c.type === "tag") as Element;
  await removeBoilerplate(article);
  return await blockText(article);
}

const story = STORY.map((p) => `<p>${p}</p>`).join("");

Deno.test("removeBoilerplate: blocks named as captions, credits, related stories, share bars, bios go", async () => {
  const out = await clean(
    `<figure><img src="x.jpg"><figcaption>The wall after the storm</figcaption></figure>` +
      `<div class="image-caption">Waves over the wall. Photo: J. Smith</div>` +
      `<span class="photo-credit">Getty Images</span>` +
      story +
      `<div id="relatedArticles"><a href="/a">Storm closes ferry</a></div>` +
      `<ul class="shareTools"><li>Facebook</li><li>Twitter</li></ul>` +
      `<div class="mod-author-bio"><p>Ann Lee covers the coast.</p></div>` +
      `<div class="most-popular"><ol><li><a href="/b">Gull steals chips</a></li></ol></div>`,
  );
  assert.equal(out, STORY.join("\n"));
});

Deno.test("removeBoilerplate: short blocks that read as boilerplate go", async () => {
  const out = await clean(
    `<p>15 May 2013 Last updated at 20:19 GMT</p><p>CAIRO | Fri Jul 19, 2013 2:34am EDT</p>` +
      `<p>By Ann Lee</p>` + story +
      `<p><b>RELATED:</b> <a href="/c">Harbour wall history</a></p>` +
      `<p>IMAGE: The harbour in 1900 (Archive)</p><p>___</p>` +
      `<p>Follow Ann Lee at: http://twitter.example/annlee</p>` +
      `<p>Kick off your day with our daily email newsletter. <a href="/n">Get it.</a></p>` +
      `<p>Comments are filtered for language and registration is required.</p>` +
      `<p>© 2013 Harbour News. All rights reserved.</p>` +
      `<p>Ann Lee is a reporter for Harbour News and writes about the coast.</p>`,
  );
  assert.equal(out, STORY.join("\n"));
});

Deno.test("removeBoilerplate: two or more link-only blocks in a row go; one link in a story stays", async () => {
  const out = await clean(
    story + `<p><a href="/d">Storm closes ferry</a></p><p><a href="/e">Gull steals chips</a></p>` +
      `<p>${STORY[0]}</p><p><a href="/f">Read the council's report</a></p><p>${STORY[1]}</p>`,
  );
  assert.equal(out, [...STORY, STORY[0], "Read the council's report", STORY[1]].join("\n"));
});

Deno.test("removeBoilerplate: the story is never dropped with a wrapper named like boilerplate", async () => {
  // The wrapper holds most of the text: its name ("comments") does not remove it.
  const out = await clean(`<div class="post-comments-wrapper">${story}</div><p>Short note.</p>`);
  assert.equal(out, [...STORY, "Short note."].join("\n"));
});

Deno.test("removeBoilerplate: an inline dateline in the first sentence, table cells and line breaks stay", async () => {
  const out = await clean(
    `<p><span class="dateline">MIAMI</span> — ${STORY[0]}</p>` +
      `<p>${STORY[1]}<br>${STORY[2]}</p>` +
      `<table><tr><th>Time</th><th>Height</th></tr><tr><td>06:12</td><td>4.1 m</td></tr></table>`,
  );
  assert.equal(
    out,
    [`MIAMI — ${STORY[0]}`, STORY[1], STORY[2], "Time", "Height", "06:12", "4.1 m"].join("\n"),
  );
});

Deno.test("isDateLine: a date with hardly a word besides; a sentence with a date is not one", () => {
  for (
    const line of [
      "June 05, 2013",
      "May 14, 2013, 1:16 p.m.",
      "Updated: June 6, 2013, 9:06 AM ET",
      "Published June 06, 2013",
    ]
  ) {
    assert.ok(isDateLine(line), line);
  }
  for (
    const line of [
      "The wall was breached in 2013 by two storms.",
      "Tuesday's vote",
      "In 2013 the council rebuilt the wall after the storms of that winter",
    ]
  ) assert.ok(!isDateLine(line), line);
});

Deno.test("removeBoilerplate: pointers elsewhere, contact lines, section labels and counts go", async () => {
  const out = await clean(
    `<p>By</p><p>1,577 shares</p><p>STORY HIGHLIGHTS</p><ul><li>Four million pounds</li>` +
      `<li>Work starts in spring</li></ul>` + story +
      `<p>(<b>MORE:</b> <a href="/m">Gull steals chips</a>)</p>` +
      `<p>[ Storms are changing the coast. <a href="/r">Read Five Harbours At Risk</a>. ]</p>` +
      `<p><a href="/t">Want More Harbour News? Click Here!</a></p>` +
      `<p>See more by <a href="/a">Ann Lee</a> on Harbour News.</p>` +
      `<p>Via <a href="/c">the council</a></p>` +
      `<p>Write to Ann Lee at ann.lee@harbour.example</p>` +
      `<h3>Related posts</h3><div><p><a href="/g">Gull steals chips</a></p></div>`,
  );
  assert.equal(out, STORY.join("\n"));
});

Deno.test("removeBoilerplate: the same words inside the story stay", async () => {
  const lines = [
    "Read more than a hundred letters, the council said, and most asked for the wall.",
    "(The council met in the old town hall, which the storm also damaged.)",
    "Residents can write to the council at harbour@council.example before Friday, and the engineer will answer each letter in the weekly bulletin, the council said.",
    "Via the east basin, boats can still reach the ferry slip.",
  ];
  const out = await clean(story + lines.map((l) => `<p>${l}</p>`).join(""));
  assert.equal(out, [...STORY, ...lines].join("\n"));
});

Deno.test("removeBoilerplate: blocks named as a header, summary, dek or highlights go", async () => {
  const out = await clean(
    `<div class="article_header"><h2>Wall to be rebuilt</h2></div>` +
      `<p class="summary">Summary: The council will rebuild the wall.</p>` +
      `<ul class="storyHighlights"><li>Four million pounds</li></ul>` + story,
  );
  assert.equal(out, STORY.join("\n"));
});

Deno.test("removeBoilerplate: a slideshow whose named slides hold most of the text keeps them", async () => {
  // Each slide holds under a quarter of the text, so each alone reads as a named box.
  const texts = [...STORY, STORY[0], STORY[1]];
  const slides = texts.map((p, i) =>
    `<div class="slideshow-slide"><img src="${i}.jpg"><h3>Slide ${i + 1}</h3><p>${p}</p></div>`
  ).join("");
  const out = await clean(`<p>The new wall in pictures.</p>${slides}`);
  assert.equal(
    out,
    ["The new wall in pictures.", ...texts.flatMap((p, i) => [`Slide ${i + 1}`, p])].join("\n"),
  );
});
