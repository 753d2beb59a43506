/** Publisher names (functions/metadata-extractor/publisher.ts). */
import assert from "node:assert/strict";
import {
  cleanPublisher,
  MAX_PUBLISHER_LENGTH,
} from "../../functions/metadata-extractor/publisher.ts";

Deno.test("a trailing (formerly …) goes; other parentheses stay", () => {
  assert.equal(cleanPublisher("X (formerly Twitter)"), "X");
  assert.equal(cleanPublisher("  Meta  (previously Facebook) "), "Meta");
  assert.equal(cleanPublisher("Radio 4 (BBC)"), "Radio 4 (BBC)");
  assert.equal(cleanPublisher("(formerly Twitter)"), "(formerly Twitter)");
});

Deno.test("blank or sentence-long values are not a publisher", () => {
  assert.equal(cleanPublisher("   "), null);
  assert.equal(cleanPublisher("a".repeat(MAX_PUBLISHER_LENGTH + 1)), null);
  assert.equal(cleanPublisher("NYTimes.com"), "NYTimes.com");
});
