/** PageSlots: at most `max` at once, a bounded queue, a bounded wait, slots handed on in order. */
import assert from "node:assert/strict";
import { PageSlots } from "../../functions/screenshot/page_slots.ts";

Deno.test("slots are granted up to max, then queued, then refused", async () => {
  const slots = new PageSlots(2, 1, 1_000);
  const a = await slots.acquire();
  const b = await slots.acquire();
  assert.ok(a && b);
  assert.equal(slots.active, 2);
  const queued = slots.acquire();
  assert.equal(slots.queued, 1);
  assert.equal(await slots.acquire(), null, "the queue is full");
  a();
  const c = await queued;
  assert.ok(c, "the waiter got the released slot");
  assert.equal(slots.active, 2);
  assert.equal(slots.queued, 0);
  a(); // a second release of the same slot is ignored
  assert.equal(slots.active, 2);
  b();
  c();
  assert.equal(slots.active, 0);
});

Deno.test("a waiter gives up after the queue timeout", async () => {
  const slots = new PageSlots(1, 5, 50);
  const held = await slots.acquire();
  const started = performance.now();
  assert.equal(await slots.acquire(), null);
  assert.ok(performance.now() - started >= 45);
  assert.equal(slots.queued, 0);
  held!();
  assert.equal(slots.active, 0);
});

Deno.test("waiters are served first come, first served", async () => {
  const slots = new PageSlots(1, 3, 1_000);
  const first = await slots.acquire();
  const order: number[] = [];
  const waiting = [1, 2, 3].map((n) =>
    slots.acquire().then((release) => {
      order.push(n);
      release!();
    })
  );
  first!();
  await Promise.all(waiting);
  assert.deepEqual(order, [1, 2, 3]);
  assert.equal(slots.active, 0);
});

Deno.test("no queue at all: past max is refused at once", async () => {
  const slots = new PageSlots(1, 0, 1_000);
  const held = await slots.acquire();
  assert.equal(await slots.acquire(), null);
  held!();
});
