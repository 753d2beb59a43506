/** The reader's warm-up (functions/ai-summary/warm_up.ts). */
import assert from "node:assert/strict";
import { readPage } from "../../functions/ai-summary/readable.ts";
import { WARM_UP_PAGE, warmUpReader } from "../../functions/ai-summary/warm_up.ts";

Deno.test("the warm-up page reads as an article: the reader's paths run, not only the parse", async () => {
  const { title, text } = await readPage(WARM_UP_PAGE, { url: "https://example.com/news/x" });
  assert.equal(title, "Warm-up article");
  assert.ok(text.includes("The first paragraph says what happened"), text);
  assert.ok(text.includes("café, &, ’"), text);
  assert.ok(text.includes("One point."), text);
  assert.ok(!/Home|Related|Privacy|A comment/.test(text), text);
});

Deno.test("warmUpReader reads once per instance and resolves", async () => {
  await warmUpReader();
  // The second call has nothing to do: it resolves before a timer could fire.
  let second = false;
  const done = warmUpReader().then(() => second = true);
  await Promise.resolve();
  await Promise.resolve();
  assert.equal(second, true);
  await done;
});
