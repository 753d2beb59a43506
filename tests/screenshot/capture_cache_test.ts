/**
 * The repeat cache: LRU bounded in bytes, 60 s lifetime, ETags and If-None-Match; and on a
 * real Chromium, a repeat within the minute is a HIT that never reaches the browser, and a
 * matching If-None-Match is a 304.
 */
import assert from "node:assert/strict";
import { CACHE_HEADER, createApp } from "../../functions/screenshot/app.ts";
import { DEFAULT_QUALITY } from "../../functions/screenshot/limits.ts";
import {
  CaptureCache,
  etagOf,
  matchesIfNoneMatch,
} from "../../functions/screenshot/capture_cache.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { pngSize } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest, testBrowser } from "./chromium.ts";

const entry = (size: number, at = 0) => ({
  body: new Uint8Array(size),
  contentType: "image/png",
  etag: `"${size}"`,
  at,
});

Deno.test("CaptureCache evicts the least recently used past its byte bound", () => {
  const cache = new CaptureCache(100, 60_000, () => 0);
  cache.set("a", entry(40));
  cache.set("b", entry(40));
  assert.ok(cache.get("a")); // a is now the most recent
  cache.set("c", entry(40)); // 120 > 100: b goes
  assert.equal(cache.get("b"), undefined);
  assert.ok(cache.get("a"));
  assert.ok(cache.get("c"));
  assert.equal(cache.bytes, 80);
  cache.set("huge", entry(101)); // larger than the whole cache: not kept, nothing evicted
  assert.equal(cache.get("huge"), undefined);
  assert.equal(cache.bytes, 80);
});

Deno.test("CaptureCache entries expire after the TTL", () => {
  let now = 0;
  const cache = new CaptureCache(1000, 60_000, () => now);
  cache.set("a", entry(10, 0));
  now = 59_999;
  assert.ok(cache.get("a"));
  now = 60_000;
  assert.equal(cache.get("a"), undefined);
  assert.equal(cache.bytes, 0);
});

Deno.test("etagOf and If-None-Match", async () => {
  const a = await etagOf(new Uint8Array([1, 2, 3]));
  const b = await etagOf(new Uint8Array([1, 2, 4]));
  assert.notEqual(a, b);
  assert.match(a, /^"[A-Za-z0-9_-]{22}"$/);
  assert.ok(matchesIfNoneMatch(a, a));
  assert.ok(matchesIfNoneMatch(`"x", W/${a}`, a));
  assert.ok(matchesIfNoneMatch("*", a));
  assert.ok(!matchesIfNoneMatch(b, a));
  assert.ok(!matchesIfNoneMatch(undefined, a));
});

chromiumTest(
  "a repeat within the minute is served from memory, with ETag and 304",
  async (_t, chrome) => {
    const server = startFixtureServer();
    const browser = testBrowser(chrome);
    const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
    const path = `/screenshot?url=${encodeURIComponent(server.url("/screenshot/solid.html"))}`;
    try {
      const first = await app.request(`${path}&width=640`);
      assert.equal(first.status, 200);
      assert.equal(first.headers.get(CACHE_HEADER), "MISS");
      const etag = first.headers.get("etag")!;
      const body = new Uint8Array(await first.arrayBuffer());
      assert.equal(etag, await etagOf(body));
      assert.equal(server.hits("/screenshot/solid.html"), 1);

      const again = await app.request(`${path}&width=640`);
      assert.equal(again.status, 200);
      assert.equal(again.headers.get(CACHE_HEADER), "HIT");
      assert.equal(again.headers.get("etag"), etag);
      assert.equal(again.headers.get("cache-control"), "public, max-age=60");
      assert.deepEqual(new Uint8Array(await again.arrayBuffer()), body);
      assert.equal(server.hits("/screenshot/solid.html"), 1, "the browser loaded the page again");

      const notModified = await app.request(`${path}&width=640`, {
        headers: { "if-none-match": etag },
      });
      assert.equal(notModified.status, 304);
      assert.equal(notModified.headers.get("etag"), etag);
      assert.equal(await notModified.text(), "");

      // Other parameters are another capture.
      const other = await app.request(`${path}&width=800`);
      assert.equal(other.headers.get(CACHE_HEADER), "MISS");
      assert.equal(pngSize(new Uint8Array(await other.arrayBuffer())).width, 800);
      assert.equal(server.hits("/screenshot/solid.html"), 2);

      // The key is the capture's options after defaults: quality=80 is jpeg's own default.
      const jpeg = await app.request(`${path}&width=640&format=jpeg`);
      assert.equal(jpeg.headers.get(CACHE_HEADER), "MISS");
      await jpeg.body?.cancel();
      const sameJpeg = await app.request(
        `${path}&width=640&format=jpeg&quality=${DEFAULT_QUALITY}`,
      );
      assert.equal(sameJpeg.headers.get(CACHE_HEADER), "HIT");
      await sameJpeg.body?.cancel();
      const otherJpeg = await app.request(`${path}&width=640&format=jpeg&quality=50`);
      assert.equal(otherJpeg.headers.get(CACHE_HEADER), "MISS");
      await otherJpeg.body?.cancel();
      assert.equal(server.hits("/screenshot/solid.html"), 4);
    } finally {
      await browser.close();
      await server.close();
    }
  },
);
