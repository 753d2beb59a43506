/** The bindings main.ts builds from the environment, and start-up failures on bad values. */
import assert from "node:assert/strict";
import { BreakerCache, MemoryCache, UpstashCache } from "../../shared/bindings/cache.ts";
import { ConfigError, Env } from "../../shared/contract/config.ts";
import { appliedVersions } from "../../shared/bindings/db.ts";
import { bindingsFromEnv } from "../../functions/link-shortener/config.ts";
import { assertConfigError } from "../support/entrypoint.ts";

Deno.test("bindingsFromEnv: defaults create DATA_DIR/links.db on first use, migrated, with the in-memory cache", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const b = bindingsFromEnv(new Env({ DATA_DIR: `${dir}/data` }));
    try {
      await assert.rejects(Deno.stat(`${dir}/data`), Deno.errors.NotFound, "nothing opened yet");
      await b.DB.client();
      assert.ok((await Deno.stat(`${dir}/data/links.db`)).isFile);
      assert.deepEqual(await appliedVersions(b.DB), [1, 2]);
      assert.ok(b.CACHE instanceof MemoryCache);
      assert.equal(b.cacheTtlSeconds, 3600);
      assert.equal(b.publicBaseUrl, undefined);
    } finally {
      b.DB.close();
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bindingsFromEnv: DB_URL, Upstash, CACHE_TTL_SECONDS and PUBLIC_BASE_URL are read", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const b = bindingsFromEnv(
      new Env({
        DB_URL: `file:${dir}/other.db`,
        UPSTASH_REDIS_REST_URL: "http://127.0.0.1:1",
        UPSTASH_REDIS_REST_TOKEN: "t",
        CACHE_TTL_SECONDS: "90",
        PUBLIC_BASE_URL: "https://go.example/",
        SHORTEN_RATE_LIMIT: "5",
      }),
    );
    assert.equal(typeof b.shortenRateLimit?.redis, "function", "counted in Upstash");
    assert.equal(b.localCacheTtlMs, undefined, "the resolver's default for Upstash");
    await b.DB.client();
    b.DB.close();
    assert.ok((await Deno.stat(`${dir}/other.db`)).isFile);
    assert.ok(b.CACHE instanceof BreakerCache);
    assert.ok(b.CACHE.inner instanceof UpstashCache);
    assert.equal(b.cacheTtlSeconds, 90);
    assert.equal(b.publicBaseUrl, "https://go.example");
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("bindingsFromEnv: a malformed value is a ConfigError naming it, before anything opens", async () => {
  const dir = await Deno.makeTempDir();
  try {
    const cases: [Record<string, string>, RegExp][] = [
      [{ CACHE_TTL_SECONDS: "soon" }, /^CACHE_TTL_SECONDS /],
      [{ CACHE_TTL_SECONDS: "0" }, /^CACHE_TTL_SECONDS /],
      [{ PUBLIC_BASE_URL: "go.example" }, /^PUBLIC_BASE_URL /],
      [{ DB_URL: "postgres://h/db" }, /^DB_URL /],
      [{ UPSTASH_REDIS_REST_URL: "https://x.upstash.io" }, /UPSTASH_REDIS_REST_TOKEN/],
      [{ CACHE_TIMEOUT_MS: "-1" }, /^CACHE_TIMEOUT_MS /],
      [{ DB_TIMEOUT_MS: "1s" }, /^DB_TIMEOUT_MS /],
      [{ CACHE_BREAKER_FAILURES: "0" }, /^CACHE_BREAKER_FAILURES /],
      [{ CACHE_BREAKER_COOLDOWN_MS: "x" }, /^CACHE_BREAKER_COOLDOWN_MS /],
      [{ DB_URL: "https://db.example?tls=0" }, /^DB_URL is not usable/],
    ];
    for (const [vars, message] of cases) {
      assert.throws(
        () => bindingsFromEnv(new Env({ DATA_DIR: `${dir}/never`, ...vars })),
        (err: Error) => err instanceof ConfigError && message.test(err.message),
        JSON.stringify(vars),
      );
    }
    await assert.rejects(Deno.stat(`${dir}/never`), Deno.errors.NotFound);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts: a malformed value stops start-up with one line naming it", async () => {
  await assertConfigError("link-shortener", { CACHE_TTL_SECONDS: "forever" }, "CACHE_TTL_SECONDS ");
});

Deno.test("bindingsFromEnv: a deployment without DB_URL answers DATABASE_ERROR naming it and writes nothing", async () => {
  const { createApp } = await import("../../functions/link-shortener/app.ts");
  const dir = await Deno.makeTempDir();
  try {
    const b = bindingsFromEnv(new Env({ DATA_DIR: `${dir}/data` }, true));
    const app = createApp(b, { log: () => {} });
    const shorten = await app.request("/shorten", {
      method: "POST",
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    assert.equal(shorten.status, 500);
    const body = await shorten.json();
    assert.equal(body.code, "DATABASE_ERROR");
    assert.match(body.error, /set DB_URL/);
    for (const path of ["/abcdef", "/abcdef/stats"]) {
      const res = await app.request(path);
      assert.equal(res.status, 500, path);
      assert.match((await res.json()).error, /DB_URL/);
    }
    await b.close?.();
    assert.deepEqual([...Deno.readDirSync(dir)], [], "nothing written");
    // An explicit file: URL is the user's choice: it works in a deployment too.
    const chosen = bindingsFromEnv(new Env({ DB_URL: `file:${dir}/mine.db` }, true));
    const made = await createApp(chosen, { log: () => {} }).request("/shorten", {
      method: "POST",
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    assert.equal(made.status, 201);
    await chosen.close?.();
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
