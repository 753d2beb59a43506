/** The shared cooperative yield: slices, the budget (wall or own time), due(), mapSoon. */
import assert from "node:assert/strict";
import { cooperative, mapSoon } from "../../../shared/contract/cooperative.ts";

const busy = (ms: number) => {
  const end = performance.now() + ms;
  while (performance.now() < end) { /* work */ }
};

Deno.test("cooperative: pauses only once a slice has passed; due() says when it will", async () => {
  // Slices and budgets far above a loaded machine's scheduling hiccups (tens of ms).
  const yieldSoon = cooperative(200);
  let ran = false;
  const other = setTimeout(() => ran = true, 0);
  assert.equal(yieldSoon.due(), false);
  await yieldSoon(); // within the slice: no pause
  assert.equal(ran, false);
  busy(210);
  assert.equal(yieldSoon.due(), true);
  await yieldSoon(); // past it: the timer ran in the pause
  assert.equal(ran, true);
  assert.equal(yieldSoon.due(), false);
  clearTimeout(other);
});

Deno.test("cooperative: past the budget the yield throws the route's error, and due() is true", async () => {
  const over = new Error("over");
  const yieldSoon = cooperative(1000, { endsAt: performance.now() + 30, over: () => over });
  await yieldSoon();
  busy(40);
  assert.equal(yieldSoon.due(), true);
  await assert.rejects(yieldSoon(), (e) => e === over);
});

Deno.test("cooperative: an own-time budget does not count the pauses, a wall budget does", async () => {
  const over = () => new Error("over");
  const own = cooperative(20, { endsAt: performance.now() + 200, over, ownTimeOnly: true });
  const wall = cooperative(20, { endsAt: performance.now() + 200, over });
  busy(100); // 100 ms of work for both: a slice has passed
  const other = setTimeout(() => busy(300), 0); // another request's 300 ms, run in the pause
  await own();
  clearTimeout(other);
  await own(); // 100 ms of its own, under 200
  await assert.rejects(wall(), /over/); // 400 ms of wall time
});

Deno.test("mapSoon: the same as map, with pauses in long lists", async () => {
  let pauses = 0;
  const items = Array.from({ length: 1000 }, (_, i) => i);
  const out = await mapSoon(items, (x, i) => x * 2 + i, () => {
    pauses++;
    return Promise.resolve();
  });
  assert.deepEqual(out, items.map((x, i) => x * 2 + i));
  assert.equal(pauses, 3); // every 256 items
});
