/**
 * The CACHE binding: the in-memory LRU, and the Upstash adapter through the real
 * `@upstash/redis` client against the wire-format fake (single commands and pipelines,
 * base64 responses, TTLs, failures and hangs), and the choice between them from the env.
 */
import assert from "node:assert/strict";
import {
  BreakerCache,
  type Cache,
  cacheFromEnv,
  CacheUnavailableError,
  MemoryCache,
  UpstashCache,
  type UpstashOptions,
} from "../../../shared/bindings/cache.ts";
import { ConfigError, Env } from "../../../shared/contract/config.ts";
import { startUpstashFake, type UpstashFake } from "../../support/upstash_fake.ts";
import { endedByDeadline } from "../../support/deadline_race.ts";

Deno.test("MemoryCache: get, set, delete, and entries expire on their TTL", async () => {
  let clock = 1000;
  const cache = new MemoryCache(10, () => clock);
  assert.equal(await cache.get("a"), null);
  await cache.set("a", "1", 500);
  assert.equal(await cache.get("a"), "1");
  clock += 499;
  assert.equal(await cache.get("a"), "1");
  clock += 1;
  assert.equal(await cache.get("a"), null, "expired at its TTL");
  assert.equal(cache.size, 0, "an expired entry is dropped when touched");
  await cache.set("b", "2", 500);
  await cache.delete("b");
  assert.equal(await cache.get("b"), null);
  await cache.delete("never-there");
});

Deno.test("MemoryCache: add stores only where no live entry is", async () => {
  let now = 0;
  const cache = new MemoryCache(10, () => now);
  assert.equal(await cache.add("k", "a", 100), true);
  assert.equal(await cache.add("k", "b", 100), false);
  assert.equal(await cache.get("k"), "a");
  now = 100;
  assert.equal(await cache.add("k", "c", 100), true);
  assert.equal(await cache.get("k"), "c");
});

Deno.test("MemoryCache: bounded, evicting the least recently used entry", async () => {
  const cache = new MemoryCache(3, () => 0);
  await cache.set("a", "1", 1000);
  await cache.set("b", "2", 1000);
  await cache.set("c", "3", 1000);
  assert.equal(await cache.get("a"), "1", "a is now the most recently used");
  await cache.set("d", "4", 1000);
  assert.equal(cache.size, 3);
  assert.equal(await cache.get("b"), null, "b was the least recently used");
  assert.equal(await cache.get("a"), "1");
  assert.equal(await cache.get("c"), "3");
  assert.equal(await cache.get("d"), "4");
  await cache.set("c", "33", 1000);
  assert.equal(cache.size, 3, "overwriting does not grow the cache");
  assert.equal(await cache.get("c"), "33");
  assert.throws(() => new MemoryCache(0), RangeError);
});

Deno.test("MemoryCache: a hit among the newer half stays in place, an older one moves to the end", async () => {
  const cache = new MemoryCache(4, () => 0);
  for (const key of ["a", "b", "c", "d"]) await cache.set(key, key, 1000);
  assert.equal(cache.getSync("c"), "c", "c is among the two newest: not moved");
  assert.equal(cache.getSync("a"), "a", "a is the oldest: moved to the end");
  await cache.set("e", "e", 1000);
  assert.equal(cache.getSync("b"), null, "b went unused the longest");
  for (const key of ["a", "c", "d", "e"]) assert.equal(cache.getSync(key), key);
  // An entry hit within the last half of the bound is never the one evicted.
  const lru = new MemoryCache(10, () => 0);
  for (let i = 0; i < 10; i++) await lru.set(`k${i}`, "v", 1000);
  for (let i = 10; i < 100; i++) {
    assert.equal(lru.getSync(`k${i - 3}`), "v", `k${i - 3} was put or hit 3 moves ago`);
    await lru.set(`k${i}`, "v", 1000);
    assert.equal(lru.size, 10);
  }
});

/** Runs `fn` with a fresh fake and an UpstashCache on it; closes the fake afterwards. */
async function withUpstash(
  options: Partial<UpstashOptions>,
  fn: (cache: UpstashCache, fake: UpstashFake) => Promise<void>,
): Promise<void> {
  const fake = await startUpstashFake();
  try {
    await fn(new UpstashCache({ url: fake.url, token: fake.token, ...options }), fake);
  } finally {
    await fake.close();
  }
}

for (const autoPipelining of [false, true]) {
  const path = autoPipelining ? "/pipeline" : "/";
  const label = `UpstashCache (${autoPipelining ? "auto-pipelined" : "single commands"})`;

  Deno.test(`${label}: round-trips strings verbatim over base64 responses`, async () => {
    await withUpstash({ autoPipelining }, async (cache, fake) => {
      const values = ["https://example.com/a?b=c#d", "123", '{"a":1}', "null", "héllo ✓ 日本"];
      for (const [i, value] of values.entries()) {
        await cache.set(`k${i}`, value, 60_000);
        assert.equal(await cache.get(`k${i}`), value);
      }
      assert.equal(await cache.get("missing"), null);
      assert.ok(fake.requests.length > 0);
      for (const req of fake.requests) {
        assert.equal(req.path, path);
        assert.equal(req.encoding, "base64", "the client asks for base64 and decodes it");
      }
    });
  });

  Deno.test(`${label}: TTL goes as EX in whole seconds, else PX, and the value expires`, async () => {
    await withUpstash({ autoPipelining }, async (cache, fake) => {
      const before = Date.now();
      await cache.set("whole", "v", 60_000);
      await cache.set("fine", "v", 1500);
      assert.deepEqual(fake.commands, [
        ["SET", "whole", "v", "ex", "60"],
        ["SET", "fine", "v", "px", "1500"],
      ]);
      // The fake's clock runs with this one: no more has passed than since `before`.
      const pttl = fake.pttl("whole");
      assert.ok(pttl <= 60_000 && pttl >= 60_000 - (Date.now() - before), `PTTL ${pttl}`);
      fake.advance(1500);
      assert.equal(await cache.get("fine"), null, "expired on the server's clock");
      assert.equal(await cache.get("whole"), "v");
      await cache.delete("whole");
      assert.equal(await cache.get("whole"), null);
      assert.deepEqual(fake.commands.slice(2).map((c) => c[0]), ["GET", "GET", "DEL", "GET"]);
    });
  });

  Deno.test(`${label}: add stores only where nothing is (SET NX PX)`, async () => {
    await withUpstash({ autoPipelining }, async (cache, fake) => {
      assert.equal(await cache.add("k", "first", 2000), true);
      assert.equal(await cache.add("k", "second", 2000), false);
      assert.equal(await cache.get("k"), "first");
      assert.deepEqual(fake.commands[0], ["SET", "k", "first", "nx", "px", "2000"]);
      fake.advance(2000);
      assert.equal(await cache.add("k", "third", 2000), true, "an expired key holds nothing");
      assert.equal(await cache.get("k"), "third");
    });
  });

  Deno.test(`${label}: an HTTP 500 rejects after one request (no retries)`, async () => {
    await withUpstash({ autoPipelining }, async (cache, fake) => {
      fake.mode = "error";
      await assert.rejects(cache.get("k"), /fake outage/);
      await assert.rejects(cache.set("k", "v", 1000), /fake outage/);
      assert.equal(fake.requests.length, 2);
    });
  });

  Deno.test(`${label}: a hanging server rejects once the timeout passes`, async () => {
    await withUpstash({ autoPipelining, timeoutMs: 150 }, async (cache, fake) => {
      fake.mode = "hang";
      const started = performance.now();
      await assert.rejects(
        endedByDeadline(cache.get("k"), 150),
        (err: Error) => err.name === "TimeoutError",
      );
      const elapsed = performance.now() - started;
      assert.ok(elapsed >= 140, `rejected early, after ${elapsed} ms`);
      assert.equal(fake.requests.length, 1, "not retried");
      fake.mode = "ok";
      await cache.set("k", "v", 1000);
      assert.equal(await cache.get("k"), "v", "works again once the server answers");
    });
  });
}

Deno.test("UpstashCache: concurrent calls in one tick share one /pipeline request", async () => {
  await withUpstash({}, async (cache, fake) => {
    fake.put("a", "1");
    fake.put("b", "2");
    const got = await Promise.all([cache.get("a"), cache.get("b"), cache.get("c")]);
    assert.deepEqual(got, ["1", "2", null]);
    assert.equal(fake.requests.length, 1);
    assert.deepEqual(fake.requests[0].commands, [["GET", "a"], ["GET", "b"], ["GET", "c"]]);
  });
});

Deno.test("UpstashCache: a wrong token is refused by the server and rejects", async () => {
  const fake = await startUpstashFake("right-token");
  try {
    const cache = new UpstashCache({ url: fake.url, token: "wrong-token" });
    await assert.rejects(cache.get("k"), /Unauthorized/);
    assert.deepEqual(fake.commands, [], "nothing ran");
  } finally {
    await fake.close();
  }
});

Deno.test("cacheFromEnv: Upstash with both variables, LRU with neither, ConfigError otherwise", () => {
  const make = (vars: Record<string, string>): Cache => cacheFromEnv(new Env(vars));
  assert.ok(make({}) instanceof MemoryCache);
  const remote = make({
    UPSTASH_REDIS_REST_URL: "https://eu1-x.upstash.io",
    UPSTASH_REDIS_REST_TOKEN: "t",
  });
  assert.ok(remote instanceof BreakerCache && remote.inner instanceof UpstashCache);
  const bad: Record<string, string>[] = [
    { UPSTASH_REDIS_REST_URL: "https://eu1-x.upstash.io" },
    { UPSTASH_REDIS_REST_TOKEN: "t" },
    { UPSTASH_REDIS_REST_URL: "redis://eu1-x.upstash.io", UPSTASH_REDIS_REST_TOKEN: "t" },
    { UPSTASH_REDIS_REST_URL: "not a url", UPSTASH_REDIS_REST_TOKEN: "t" },
    { CACHE_TIMEOUT_MS: "fast" },
    { CACHE_MAX_ENTRIES: "0" },
    { CACHE_BREAKER_FAILURES: "many" },
    { CACHE_BREAKER_COOLDOWN_MS: "10" },
  ];
  for (const vars of bad) {
    assert.throws(() => make(vars), ConfigError, JSON.stringify(vars));
  }
});

/** A cache whose calls fail, hang or succeed on demand, counting the calls that reach it. */
class FlakyCache implements Cache {
  calls = 0;
  mode: "ok" | "error" | "hang" = "ok";
  #answer<T>(value: T): Promise<T> {
    this.calls++;
    if (this.mode === "error") return Promise.reject(new Error("down"));
    if (this.mode === "hang") return new Promise<T>(() => {});
    return Promise.resolve(value);
  }
  get(_key: string) {
    return this.#answer<string | null>("v");
  }
  set(_key: string, _value: string, _ttlMs: number) {
    return this.#answer<void>(undefined);
  }
  add(_key: string, _value: string, _ttlMs: number) {
    return this.#answer<boolean>(true);
  }
  delete(_key: string) {
    return this.#answer<void>(undefined);
  }
}

Deno.test("BreakerCache: opens after N failures in a row, refuses at once, one trial after the cooldown", async () => {
  let clock = 0;
  const changes: string[] = [];
  const inner = new FlakyCache();
  const cache = new BreakerCache(inner, {
    failures: 3,
    cooldownMs: 1_000,
    timeoutMs: 50,
    now: () => clock,
    onStateChange: (state) => changes.push(state),
  });
  assert.equal(await cache.get("k"), "v");
  inner.mode = "error";
  await assert.rejects(cache.get("k"), /down/);
  inner.mode = "ok";
  assert.equal(await cache.get("k"), "v", "a success resets the count");
  inner.mode = "error";
  for (let i = 0; i < 3; i++) await assert.rejects(cache.get("k"), /down/);
  assert.equal(cache.state, "open");
  assert.deepEqual(changes, ["open"]);
  const before = inner.calls;
  for (let i = 0; i < 20; i++) await assert.rejects(cache.set("k", "v", 1), CacheUnavailableError);
  assert.equal(inner.calls, before, "nothing reaches the cache while open");
  clock += 1_000;
  assert.equal(cache.state, "half-open");
  await assert.rejects(cache.get("k"), /down/, "the trial fails");
  assert.equal(cache.state, "open", "open for another cooldown");
  assert.equal(inner.calls, before + 1);
  clock += 1_000;
  inner.mode = "ok";
  assert.equal(await cache.get("k"), "v", "the trial succeeds");
  assert.equal(cache.state, "closed");
  assert.deepEqual(changes, ["open", "closed"]);
});

Deno.test("BreakerCache: a hanging cache fails at the deadline; while the trial hangs, others are refused", async () => {
  let clock = 0;
  const inner = new FlakyCache();
  const cache = new BreakerCache(inner, {
    failures: 2,
    cooldownMs: 100,
    timeoutMs: 40,
    now: () => clock,
  });
  inner.mode = "hang";
  await assert.rejects(endedByDeadline(cache.get("k"), 40), /did not answer within 40 ms/);
  await assert.rejects(endedByDeadline(cache.get("k"), 40), /did not answer/);
  assert.equal(cache.state, "open");
  clock += 100;
  const trial = cache.get("k");
  await assert.rejects(cache.get("k"), CacheUnavailableError, "only one trial at a time");
  await assert.rejects(trial, /did not answer/);
  assert.equal(inner.calls, 3);
});

Deno.test("BreakerCache: loading the client (ready) is outside the call's deadline, and done once", async () => {
  let loads = 0;
  class SlowLoadingCache extends FlakyCache {
    async ready() {
      loads++;
      await new Promise((resolve) => setTimeout(resolve, 120));
    }
  }
  const inner = new SlowLoadingCache();
  const cache = new BreakerCache(inner, { timeoutMs: 40 });
  assert.equal(await cache.get("k"), "v", "a load longer than the deadline is no timeout");
  assert.equal(await cache.get("k"), "v");
  assert.equal(loads, 1, "ready is awaited until it has resolved once");
  inner.mode = "hang";
  await assert.rejects(cache.get("k"), /cache get/, "the call itself still has its deadline");
});
