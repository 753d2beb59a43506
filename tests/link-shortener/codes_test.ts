/** Codes, instants and the self-link guard as units; code allocation with forced collisions. */
import assert from "node:assert/strict";
import {
  BASE62,
  isReservedCode,
  randomCode,
  RESERVED_CODES,
} from "../../functions/link-shortener/codes.ts";
import { parseInstant } from "../../functions/link-shortener/schema.ts";
import { pointsAtSelf } from "../../functions/link-shortener/self_link.ts";
import { MAX_CODE_ATTEMPTS, shorten } from "../../functions/link-shortener/shorten.ts";
import { LinkStore } from "../../functions/link-shortener/store.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { linkApp } from "./app_fixture.ts";

Deno.test("randomCode: 7 base62 characters, uniform (no modulo bias), not repeating", () => {
  const counts = new Map<string, number>();
  const seen = new Set<string>();
  for (let i = 0; i < 40_000; i++) {
    const code = randomCode();
    assert.match(code, /^[0-9A-Za-z]{7}$/);
    seen.add(code);
    for (const ch of code) counts.set(ch, (counts.get(ch) ?? 0) + 1);
  }
  assert.equal(seen.size, 40_000);
  assert.equal(counts.size, 62);
  // `byte % 62` over all 256 byte values would make the first 8 symbols 25% likelier.
  const mean = (chars: string) =>
    [...chars].reduce((sum, ch) => sum + counts.get(ch)!, 0) / chars.length;
  const ratio = mean(BASE62.slice(0, 8)) / mean(BASE62.slice(8));
  assert.ok(ratio > 0.95 && ratio < 1.05, `first-8 / rest frequency ratio ${ratio}`);
  assert.equal(randomCode(12).length, 12);
});

Deno.test("reserved codes are matched in any case", () => {
  assert.ok(RESERVED_CODES.has("shorten") && RESERVED_CODES.has("health"));
  assert.ok(isReservedCode("SHORTEN") && isReservedCode("Health") && isReservedCode("docs"));
  assert.ok(!isReservedCode("shortens") && !isReservedCode("abc1234"));
});

Deno.test("parseInstant: ISO 8601 dates and zoned date-times, normalised to UTC", () => {
  assert.equal(parseInstant("2030-01-02"), "2030-01-02T00:00:00.000Z");
  assert.equal(parseInstant("2030-01-02T03:04Z"), "2030-01-02T03:04:00.000Z");
  assert.equal(parseInstant("2030-01-02T03:04:05-05:00"), "2030-01-02T08:04:05.000Z");
  assert.equal(parseInstant("2028-02-29"), "2028-02-29T00:00:00.000Z", "leap day");
  for (const bad of ["2029-02-29", "2030-04-31", "2030-1-2", "2030-01-02T03:04", "", "now"]) {
    assert.equal(parseInstant(bad), null, bad);
  }
});

Deno.test("pointsAtSelf: same host and port, any scheme; loopback names are one host", () => {
  const self = ["http://sho.rt", "https://go.example:8443/s"];
  assert.ok(pointsAtSelf("https://sho.rt/x", self));
  assert.ok(pointsAtSelf("http://SHO.RT./x", self));
  assert.ok(pointsAtSelf("https://go.example:8443/other", self));
  assert.ok(!pointsAtSelf("https://go.example/x", self));
  assert.ok(!pointsAtSelf("https://sub.sho.rt/x", self));
  assert.ok(!pointsAtSelf("https://sho.rt.evil.example/x", self));
  assert.ok(pointsAtSelf("http://[::1]:8007/", ["http://localhost:8007"]));
  assert.ok(pointsAtSelf("http://127.0.0.2:8007/", ["http://localhost:8007"]));
  assert.ok(!pointsAtSelf("http://127.0.0.1:8001/", ["http://localhost:8007"]));
});

Deno.test("shorten: a colliding generated code is drawn again; endless collisions give up", async () => {
  await using fx = await linkApp();
  const store = new LinkStore(fx.db, () => {});
  const taken = { code: "AAAAAAA", url: "https://taken.example/", createdAt: "x", expiresAt: null };
  assert.equal(await store.insert(taken, true, "h"), "inserted");
  const draws = ["AAAAAAA", "AAAAAAA", "BBBBBBB"];
  const out = await shorten(store, { url: "https://example.com/" }, () => draws.shift()!);
  assert.equal(out.link.code, "BBBBBBB");
  assert.match(out.manageToken, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(draws.length, 0, "drew until a free code");

  let calls = 0;
  await assert.rejects(
    shorten(store, { url: "https://example.com/other" }, () => {
      calls++;
      return "AAAAAAA";
    }),
    (err: ApiError) => err.code === "INTERNAL_ERROR",
  );
  assert.equal(calls, MAX_CODE_ATTEMPTS);
});
