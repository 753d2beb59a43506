/** Deadlines of binding calls: the value in time, DeadlineError after, no timer left behind. */
import assert from "node:assert/strict";
import { DeadlineError, withDeadline } from "../../../shared/bindings/deadline.ts";

Deno.test("withDeadline: the value or the error in time; a hung call fails at the deadline", async () => {
  assert.equal(await withDeadline(Promise.resolve(7), 50, "x"), 7);
  await assert.rejects(withDeadline(Promise.reject(new Error("own")), 50, "x"), /own/);
  const started = performance.now();
  await assert.rejects(
    withDeadline(new Promise(() => {}), 60, "libSQL"),
    (err: Error) =>
      err instanceof DeadlineError && /libSQL did not answer within 60 ms/.test(err.message),
  );
  const elapsed = performance.now() - started;
  assert.ok(elapsed >= 55 && elapsed < 1_000, `${elapsed} ms`);
  // The test sanitizer fails this test if a timer outlived a settled call.
});
