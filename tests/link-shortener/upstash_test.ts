/**
 * The redirect path over the real `@upstash/redis` client (through UpstashCache) against the
 * wire-format fake: read-through, population with a TTL, expiry of the cached pair, and the
 * cache-down path (500 and hang), where the 302 still comes from libSQL within the timeout.
 */
import assert from "node:assert/strict";
import { BreakerCache, UpstashCache } from "../../shared/bindings/cache.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { startUpstashFake, type UpstashFake } from "../support/upstash_fake.ts";
import { type LinkApp, linkApp } from "./app_fixture.ts";

const TIMEOUT_MS = 200;

/** The app with UpstashCache on a fresh fake; both are closed afterwards. */
async function withUpstashApp(
  autoPipelining: boolean,
  fn: (fx: LinkApp, fake: UpstashFake) => Promise<void>,
): Promise<void> {
  const fake = await startUpstashFake();
  try {
    const cache = new UpstashCache({
      url: fake.url,
      token: fake.token,
      timeoutMs: TIMEOUT_MS,
      autoPipelining,
    });
    // No in-process tier: every lookup reaches the shared cache (resolve_test.ts has the tiers).
    await using fx = await linkApp({ CACHE: cache, cacheTtlSeconds: 60, localCacheTtlMs: 0 });
    await fn(fx, fake);
  } finally {
    await fake.close();
  }
}

async function create(fx: LinkApp, body: Record<string, unknown>): Promise<string> {
  const res = await fx.shorten(body);
  assert.equal(res.status, 201);
  return (await res.json()).code;
}

for (const autoPipelining of [true, false]) {
  const mode = autoPipelining ? "auto-pipelined" : "single commands";

  Deno.test(`Upstash (${mode}): a miss reads libSQL and populates the cache where it is empty (SET NX)`, async () => {
    await withUpstashApp(autoPipelining, async (fx, fake) => {
      const code = await create(fx, { url: "https://example.com/target" });
      assert.deepEqual(fake.commands, []);
      const before = Date.now();
      const res = await fx.get(`/${code}`);
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "https://example.com/target");
      assert.deepEqual(fake.commands, [
        ["GET", `link:${code}`],
        ["SET", `link:${code}`, "https://example.com/target", "nx", "px", "60000"],
      ]);
      // The fake's clock runs with this one: no more has passed than since `before`.
      const pttl = fake.pttl(`link:${code}`);
      assert.ok(pttl <= 60_000 && pttl >= 60_000 - (Date.now() - before), `PTTL ${pttl}`);
      for (const req of fake.requests) {
        assert.equal(req.path, autoPipelining ? "/pipeline" : "/");
        assert.equal(req.encoding, "base64");
      }
    });
  });

  Deno.test(`Upstash (${mode}): a hit is served from the cache alone`, async () => {
    await withUpstashApp(autoPipelining, async (fx, fake) => {
      const code = await create(fx, { url: "https://example.com/target" });
      assert.equal((await fx.get(`/${code}`)).status, 302);
      // Another writer's value under a code libSQL never saw: the cache answers first.
      fake.put("link:elsewhere", "https://example.org/from-cache");
      await fx.db.execute("DELETE FROM links");
      fake.clearLog();
      const hit = await fx.get(`/${code}`);
      assert.equal(hit.status, 302);
      assert.equal(hit.headers.get("location"), "https://example.com/target");
      const other = await fx.get("/elsewhere");
      assert.equal(other.headers.get("location"), "https://example.org/from-cache");
      assert.deepEqual(fake.commands, [["GET", `link:${code}`], ["GET", "link:elsewhere"]]);
    });
  });

  Deno.test(`Upstash (${mode}): the TTL is bounded by expiresAt and the pair expires`, async () => {
    await withUpstashApp(autoPipelining, async (fx, fake) => {
      const expiresAt = new Date(Date.now() + 5_000).toISOString();
      const code = await create(fx, { url: "https://example.com/soon", expiresAt });
      const before = Date.now();
      assert.equal((await fx.get(`/${code}`)).status, 302);
      const after = Date.now();
      const set = fake.commands.find((c) => c[0] === "SET")!;
      assert.deepEqual(set.slice(3, 5), ["nx", "px"]);
      const px = Number(set[5]);
      // What was left of the link's life at the redirect, however long the requests took.
      const left = Date.parse(expiresAt);
      assert.ok(px <= left - before && px >= left - after, `PX ${px}`);
      // On the server's clock the pair expires with the link; the next lookup misses.
      fake.advance(px);
      fake.clearLog();
      assert.equal((await fx.get(`/${code}`)).status, 302, "the link itself has not expired");
      assert.deepEqual(fake.commands.map((c) => c[0]), ["GET", "SET"]);
    });
  });

  Deno.test(`Upstash (${mode}): a 500 from the cache still redirects from libSQL`, async () => {
    await withUpstashApp(autoPipelining, async (fx, fake) => {
      const code = await create(fx, { url: "https://example.com/target" });
      fake.mode = "error";
      const res = await fx.get(`/${code}`);
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "https://example.com/target");
      const failures = fx.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "cache_error");
      assert.deepEqual(failures.map((f) => f.op), ["get"]);
      assert.match(failures[0].message, /fake outage/);
      assert.equal(fake.requests.length, 1, "one request, no retries, no write after it failed");
      const missing = await fx.get("/nothere");
      assert.equal(missing.status, 404);
      await missing.body?.cancel();
    });
  });

  Deno.test(`Upstash (${mode}): a hanging cache still redirects from libSQL within the timeout`, async () => {
    await withUpstashApp(autoPipelining, async (fx, fake) => {
      const code = await create(fx, { url: "https://example.com/target" });
      fake.mode = "hang";
      const started = performance.now();
      const res = await endedByDeadline(fx.get(`/${code}`), TIMEOUT_MS);
      const elapsed = performance.now() - started;
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "https://example.com/target");
      // The GET's timeout was waited for (a timer never fires early; how much later it fires
      // depends on the machine's load, so only the race above bounds it). One timeout: one
      // failed GET below, no retry and no SET to a cache that just failed.
      assert.ok(elapsed >= TIMEOUT_MS - 10, `took ${elapsed} ms`);
      const failures = fx.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "cache_error");
      assert.deepEqual(failures.map((f) => f.op), ["get"]);
      assert.equal(fake.requests.length, 1);
      assert.match(failures[0].message, /TimeoutError/);
      // Once the cache answers again it is used again.
      fake.mode = "ok";
      assert.equal((await fx.get(`/${code}`)).status, 302);
      assert.equal(fake.pttl(`link:${code}`) > 0, true);
    });
  });
}

Deno.test("Upstash hanging behind the circuit breaker: after 3 timeouts, redirects skip it; it is tried again after the cooldown", async () => {
  const fake = await startUpstashFake();
  try {
    const upstash = new UpstashCache({ url: fake.url, token: fake.token, timeoutMs: TIMEOUT_MS });
    const states: string[] = [];
    // The breaker's clock is the test's: the cooldown ends when the test says so, however
    // long the redirects below take on a loaded machine.
    let now = 0;
    const cache = new BreakerCache(upstash, {
      failures: 3,
      cooldownMs: 600,
      timeoutMs: TIMEOUT_MS + 50,
      onStateChange: (state) => states.push(state),
      now: () => now,
    });
    await using fx = await linkApp({ CACHE: cache, cacheTtlSeconds: 60, localCacheTtlMs: 0 });
    const code = await create(fx, { url: "https://example.com/target" });
    fake.mode = "hang";
    for (let i = 0; i < 3; i++) {
      const res = await fx.get(`/${code}`);
      assert.equal(res.status, 302, "served from libSQL");
    }
    assert.deepEqual(states, ["open"]);
    const requests = fake.requests.length;
    now += 599;
    for (let i = 0; i < 20; i++) {
      const res = await fx.get(`/${code}`);
      assert.equal(res.headers.get("location"), "https://example.com/target");
    }
    // Not called, so not waited for: no redirect paid the hanging cache's timeout.
    assert.equal(fake.requests.length, requests, "the hanging cache was not called");
    assert.equal(cache.state, "open");
    const logged = fx.logs.filter((l) => l.includes('"cache_error"')).length;
    assert.equal(logged, 3, "one log line per real failure, none per skipped call");
    // The cache recovers; after the cooldown the next redirect tries it and closes the circuit.
    fake.mode = "ok";
    now += 1;
    assert.equal(cache.state, "half-open");
    // The released requests' connections may still be settling in the client: a trial that
    // fails on one reopens the circuit for another cooldown, so up to three cooldowns pass.
    for (let trial = 0; trial < 3 && !states.includes("closed"); trial++) {
      if (trial > 0) now += 600;
      assert.equal((await fx.get(`/${code}`)).status, 302);
    }
    assert.deepEqual(states, ["open", "closed"]);
    assert.ok(fake.pttl(`link:${code}`) > 0, "filled again");
  } finally {
    await fake.close();
  }
});
