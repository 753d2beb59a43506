import assert from "node:assert/strict";
import { decodeCursor, encodeCursor } from "../../functions/object-storage/cursor.ts";

Deno.test("cursors round-trip any valid key and are URL-safe", () => {
  for (const key of ["a", "photos/été 2024/😀.jpg", "k".repeat(1024), "a?b&c=d+e/f"]) {
    const cursor = encodeCursor(key);
    assert.match(cursor, /^[A-Za-z0-9_-]+$/);
    assert.equal(decodeCursor(cursor), key);
  }
});

Deno.test("a cursor that is not one of ours is refused", () => {
  const bad = [
    "",
    "not base64!",
    "a+b/c=",
    encodeCursor("ok").slice(0, 1), // truncated to one character
    btoa("../etc/passwd").replace(/=+$/, ""),
    btoa("\xff\xfe").replace(/=+$/, ""), // not UTF-8
    "A".repeat(4096),
  ];
  for (const cursor of bad) assert.equal(decodeCursor(cursor), null, cursor);
});
