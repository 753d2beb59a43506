/** The deadline race: a call that settles passes through, one that never does fails. */
import assert from "node:assert/strict";
import { AssertionError } from "node:assert";
import { endedByDeadline } from "./deadline_race.ts";

Deno.test("endedByDeadline: the call's own outcome when it settles first", async () => {
  assert.equal(await endedByDeadline(Promise.resolve(7), 10), 7);
  await assert.rejects(endedByDeadline(Promise.reject(new RangeError("late")), 10), RangeError);
});

Deno.test("endedByDeadline: an AssertionError when nothing ends the call", async () => {
  let release = () => {};
  const never = new Promise<void>((resolve) => release = resolve);
  await assert.rejects(endedByDeadline(never, 1, 5), AssertionError);
  release();
});
