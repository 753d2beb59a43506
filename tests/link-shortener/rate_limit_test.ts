/** The optional per-client limit of `POST /shorten`: off by default, 429 past it, per address. */
import assert from "node:assert/strict";
import { FixedWindowLimiter } from "../../functions/link-shortener/rate_limit.ts";
import { linkApp, ORIGIN } from "./app_fixture.ts";

function from(hostname: string) {
  return { remoteAddr: { transport: "tcp", hostname, port: 40000 } };
}

Deno.test("FixedWindowLimiter: limit per client and window, Retry-After to the window's end", () => {
  let now = 60_000;
  const limiter = new FixedWindowLimiter(2, 60_000, () => now);
  assert.equal(limiter.take("a").allowed, true);
  assert.equal(limiter.take("a").allowed, true);
  now += 15_000;
  const third = limiter.take("a");
  assert.equal(third.allowed, false);
  assert.equal(third.retryAfterSeconds, 45);
  assert.equal(limiter.take("b").allowed, true, "another client has its own count");
  now += 45_000;
  assert.equal(limiter.take("a").allowed, true, "a new window");
});

Deno.test("POST /shorten: no limit by default", async () => {
  await using fx = await linkApp();
  for (let i = 0; i < 40; i++) {
    const res = await fx.app.request(`${ORIGIN}/shorten`, {
      method: "POST",
      body: JSON.stringify({ url: `https://example.com/${i}` }),
    }, from("192.0.2.1"));
    assert.equal(res.status, 201);
    await res.body?.cancel();
  }
});

Deno.test("POST /shorten with SHORTEN_RATE_LIMIT: 429 INVALID_INPUT past it, per client address", async () => {
  await using fx = await linkApp({ shortenRateLimit: { limit: 3, windowSeconds: 60 } });
  const post = (ip: string) =>
    fx.app.request(`${ORIGIN}/shorten`, {
      method: "POST",
      body: JSON.stringify({ url: "https://example.com/" }),
    }, from(ip));
  for (let i = 0; i < 3; i++) assert.equal((await post("192.0.2.1")).status, 201);
  const refused = await post("192.0.2.1");
  assert.equal(refused.status, 429);
  assert.ok(Number(refused.headers.get("retry-after")) >= 1);
  assert.deepEqual(await refused.json(), {
    error: "Too many links: at most 3 per 60 s",
    code: "INVALID_INPUT",
  });
  assert.equal((await post("192.0.2.2")).status, 201, "another address is not limited");
  const count = await fx.db.execute("SELECT count(*) AS n FROM links");
  assert.equal(count.rows[0].n, 4, "the refused request stored nothing");
});
