import assert from "node:assert/strict";
import {
  ifRangeHolds,
  noneMatchHits,
  parseRange,
  resolveRange,
} from "../../functions/object-storage/conditions.ts";

Deno.test("parseRange takes one byte range and ignores the rest", () => {
  assert.deepEqual(parseRange("bytes=0-9"), { start: 0, end: 9 });
  assert.deepEqual(parseRange("bytes=5-"), { start: 5, end: undefined });
  assert.deepEqual(parseRange("bytes=-20"), { suffix: 20 });
  assert.deepEqual(parseRange(" Bytes = 1 - 2 "), { start: 1, end: 2 });
  for (
    const ignored of [
      undefined,
      "",
      "bytes=",
      "bytes=-",
      "bytes=9-5",
      "bytes=0-1,3-4",
      "items=0-1",
      "bytes=a-b",
      "bytes=99999999999999999999-",
    ]
  ) {
    assert.equal(parseRange(ignored), null, String(ignored));
  }
});

Deno.test("resolveRange clamps to the size or says unsatisfiable", () => {
  assert.deepEqual(resolveRange({ start: 2, end: 5 }, 10), { start: 2, end: 5 });
  assert.deepEqual(resolveRange({ start: 2, end: 500 }, 10), { start: 2, end: 9 });
  assert.deepEqual(resolveRange({ start: 9 }, 10), { start: 9, end: 9 });
  assert.deepEqual(resolveRange({ suffix: 3 }, 10), { start: 7, end: 9 });
  assert.deepEqual(resolveRange({ suffix: 30 }, 10), { start: 0, end: 9 });
  assert.equal(resolveRange({ start: 10 }, 10), null);
  assert.equal(resolveRange({ suffix: 0 }, 10), null);
  assert.equal(resolveRange({ start: 0 }, 0), null, "an empty object has no bytes to give");
});

Deno.test("If-None-Match compares weakly and knows *", () => {
  assert.ok(noneMatchHits('"abc"', '"abc"'));
  assert.ok(noneMatchHits('W/"abc"', '"abc"'));
  assert.ok(noneMatchHits('"x", "abc"', '"abc"'));
  assert.ok(noneMatchHits("*", '"abc"'));
  assert.ok(!noneMatchHits('"abd"', '"abc"'));
  assert.ok(!noneMatchHits("", '"abc"'));
});

Deno.test("If-Range holds for the current strong tag or exact date only", () => {
  const info = {
    key: "k",
    size: 1,
    contentType: "text/plain",
    etag: '"abc"',
    uploaded: new Date("2025-01-02T03:04:05.678Z"),
  };
  assert.ok(ifRangeHolds(undefined, info));
  assert.ok(ifRangeHolds('"abc"', info));
  assert.ok(!ifRangeHolds('"old"', info));
  assert.ok(!ifRangeHolds('W/"abc"', info));
  assert.ok(ifRangeHolds("Thu, 02 Jan 2025 03:04:05 GMT", info));
  assert.ok(!ifRangeHolds("Thu, 02 Jan 2025 03:04:04 GMT", info));
  assert.ok(!ifRangeHolds("garbage", info));
});
