/** Deadlines of calls: the value in time, the deadline's error after, no timer left behind. */
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
  // A timer never fires early; how late it fires depends on the machine's load (no upper bound).
  assert.ok(performance.now() - started >= 55);
  // The test sanitizer fails this test if a timer outlived a settled call.
});

Deno.test("withDeadline: the caller's error instead of DeadlineError", async () => {
  class Late extends Error {}
  await assert.rejects(withDeadline(new Promise(() => {}), 10, () => new Late("late")), Late);
});

Deno.test("withDeadline of a function: its signal is aborted with the error, and the rejection waits for the call", async () => {
  class Late extends Error {}
  let settled = false;
  const call = (signal: AbortSignal) =>
    new Promise<number>((_, reject) => {
      signal.addEventListener("abort", () => {
        // The aborted call takes a moment to let go of what it holds.
        setTimeout(() => {
          settled = true;
          reject(new DOMException("aborted", "AbortError"));
        }, 20);
      });
    });
  await assert.rejects(withDeadline(call, 10, () => new Late("late")), (err) => {
    assert.ok(err instanceof Late, "the deadline's error, not the call's AbortError");
    assert.ok(settled, "rejected only once the call had settled");
    return true;
  });
  assert.equal(await withDeadline((signal) => Promise.resolve(signal.aborted), 50, "x"), false);
  await assert.rejects(withDeadline(() => Promise.reject(new Error("own")), 50, "x"), /own/);
});
