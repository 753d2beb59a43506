/** The optional per-client limit of `POST /shorten`: off by default, 429 past it, per address. */
import assert from "node:assert/strict";
import { FixedWindowLimiter } from "../../functions/link-shortener/rate_limit.ts";
import { UpstashCache } from "../../shared/bindings/cache.ts";
import { startUpstashFake } from "../support/upstash_fake.ts";
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

Deno.test("with Upstash: @upstash/ratelimit's script counts in the fake, shared by two instances", async () => {
  const fake = await startUpstashFake();
  try {
    const redis = () => new UpstashCache({ url: fake.url, token: fake.token }).redis();
    const limit = { limit: 3, windowSeconds: 60, redis };
    await using a = await linkApp({ shortenRateLimit: limit });
    await using b = await linkApp({ shortenRateLimit: limit, dir: a.dir });
    const post = (fx: typeof a, ip: string) =>
      fx.app.request(`${ORIGIN}/shorten`, {
        method: "POST",
        body: JSON.stringify({ url: "https://example.com/" }),
      }, from(ip));
    // Three through A and B together, the fourth refused by either.
    assert.equal((await post(a, "192.0.2.7")).status, 201);
    assert.equal((await post(b, "192.0.2.7")).status, 201);
    assert.equal((await post(a, "192.0.2.7")).status, 201);
    const refused = await post(b, "192.0.2.7");
    assert.equal(refused.status, 429);
    assert.ok(Number(refused.headers.get("retry-after")) >= 1);
    assert.equal((await refused.json()).error, "Too many links: at most 3 per 60 s");
    assert.equal((await post(a, "192.0.2.8")).status, 201, "another client has its own count");
    // The library's own wire: EVALSHA of its script, once NOSCRIPT then EVAL, then cached.
    const names = fake.commands.map((c) => c[0]);
    assert.equal(names[0], "EVALSHA");
    assert.equal(names[1], "EVAL");
    assert.ok(names.slice(2).every((n) => n === "EVALSHA"), names.join(" "));
    const key = fake.commands[1][3];
    assert.match(key, /^ratelimit:shorten:192\.0\.2\.7:\d+$/);
    assert.ok(fake.pttl(key) > 0 && fake.pttl(key) <= 60_000, "the window's key expires");
  } finally {
    await fake.close();
  }
});

Deno.test("with Upstash down: the instance's own count decides, and the failure is logged", async () => {
  const fake = await startUpstashFake();
  try {
    const redis = () => new UpstashCache({ url: fake.url, token: fake.token }).redis();
    fake.mode = "error";
    await using fx = await linkApp({ shortenRateLimit: { limit: 2, windowSeconds: 60, redis } });
    const post = () =>
      fx.app.request(`${ORIGIN}/shorten`, {
        method: "POST",
        body: JSON.stringify({ url: "https://example.com/" }),
      }, from("192.0.2.9"));
    assert.equal((await post()).status, 201);
    assert.equal((await post()).status, 201);
    assert.equal((await post()).status, 429);
    const logged = fx.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "rate_limit_error");
    assert.equal(logged.length, 3);
  } finally {
    await fake.close();
  }
});

Deno.test("the fake runs Redis scripts honestly: EVAL caches by SHA-1, replies convert both ways", async () => {
  const fake = await startUpstashFake();
  try {
    const redis = await new UpstashCache({ url: fake.url, token: fake.token }).redis();
    const script = `local n = redis.call("INCRBY", KEYS[1], ARGV[1])
      redis.call("PEXPIRE", KEYS[1], 5000)
      return {n, redis.call("GET", "missing"), redis.call("SET", KEYS[1] .. ":s", "v"), 2.9}`;
    assert.deepEqual(await redis.eval(script, ["k"], ["4"]), [4, null, "OK", 2]);
    const sha = await redis.scriptLoad(script);
    assert.deepEqual(await redis.evalsha(sha, ["k"], ["1"]), [5, null, "OK", 2]);
    assert.ok(fake.pttl("k") > 0 && fake.pttl("k") <= 5000);
    await assert.rejects(redis.evalsha("0".repeat(40), [], []), /NOSCRIPT/);
    await assert.rejects(
      redis.eval("return redis.call('INCRBY', KEYS[1], 'x')", ["k"], []),
      /not an integer/,
    );
  } finally {
    await fake.close();
  }
});
