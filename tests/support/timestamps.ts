/**
 * "This time is now", without a tolerance in seconds: a timestamp an answer carries must fall
 * between a moment the test took before the request and the moment it is checked, whatever
 * the machine's load made of the time between.
 */
import assert from "node:assert/strict";

/**
 * Asserts that `text` (an ISO 8601 or HTTP date) is no earlier than `since` (ms since the
 * epoch, taken before the request; rounded down to the second, as HTTP dates are) and no later
 * than now.
 */
export function assertMadeSince(text: string | null | undefined, since: number, label = "time") {
  const at = Date.parse(text ?? "");
  const now = Date.now();
  assert.ok(
    at >= Math.floor(since / 1000) * 1000 && at <= now,
    `${label} ${text} is not between ${new Date(since).toISOString()} and ${
      new Date(now).toISOString()
    }`,
  );
}
