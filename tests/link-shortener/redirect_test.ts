/**
 * `GET /:code` and `GET /:code/info`, black-box through the app on a libSQL file: contract
 * rule 7 (cache first, libSQL on a miss, the cache filled before the 302), expiry, misses
 * that are not cached, and the failure paths of the cache and the database.
 */
import assert from "node:assert/strict";
import { linkApp, ORIGIN, RecordingCache } from "./app_fixture.ts";

/** Creates a link through the API and returns its code. */
async function create(
  fx: { shorten(body: unknown): Promise<Response> },
  body: Record<string, unknown>,
): Promise<string> {
  const res = await fx.shorten(body);
  assert.equal(res.status, 201, await res.clone().text());
  return (await res.json()).code;
}

/** Inserts a row directly (e.g. one already expired, which the API would refuse). */
async function insertRow(
  db: { execute(stmt: { sql: string; args: (string | null)[] }): Promise<unknown> },
  code: string,
  url: string,
  expiresAt: string | null,
): Promise<void> {
  await db.execute({
    sql: "INSERT INTO links (code, url, custom, created_at, expires_at) VALUES (?, ?, 1, ?, ?)",
    args: [code, url, new Date().toISOString(), expiresAt],
  });
}

async function assertNotFound(res: Response, error = "Link not found"): Promise<void> {
  assert.equal(res.status, 404);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.deepEqual(await res.json(), { error, code: "NOT_FOUND" });
}

Deno.test("GET /:code is 302 with Location = the stored URL", async () => {
  await using fx = await linkApp();
  const code = await create(fx, { url: "https://example.com/a?b=c#d" });
  const res = await fx.get(`/${code}`);
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "https://example.com/a?b=c#d");
  assert.ok(res.headers.get("x-request-id"));
  await res.body?.cancel();
  const custom = await create(fx, { url: "https://example.org/", code: "Custom_Code-1" });
  const again = await fx.get(`/${custom}`);
  assert.equal(again.status, 302);
  assert.equal(again.headers.get("location"), "https://example.org/");
  // Codes are case-sensitive.
  await assertNotFound(await fx.get("/custom_code-1"));
});

Deno.test("rule 7: a miss reads libSQL and fills the cache before the 302; a hit skips libSQL", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache, cacheTtlSeconds: 120 });
  const code = await create(fx, { url: "https://example.com/" });
  assert.deepEqual(cache.calls, [], "creating a link does not touch the cache");

  const first = await fx.get(`/${code}`);
  assert.equal(first.status, 302);
  assert.deepEqual(cache.calls, [
    { op: "get", key: `link:${code}` },
    { op: "add", key: `link:${code}`, value: "https://example.com/", ttlMs: 120_000 },
  ]);

  // With the row gone from libSQL, the cached pair still answers: the in-process tier first.
  await fx.db.execute({ sql: "DELETE FROM links WHERE code = ?", args: [code] });
  cache.calls.length = 0;
  const second = await fx.get(`/${code}`);
  assert.equal(second.status, 302);
  assert.equal(second.headers.get("location"), "https://example.com/");
  assert.deepEqual(cache.calls, [], "answered in process");
});

Deno.test("rule 7: a code in neither the cache nor libSQL is 404 Link not found", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache });
  await assertNotFound(await fx.get("/Zz9Zz9Z"));
  assert.deepEqual(cache.calls, [{ op: "get", key: "link:Zz9Zz9Z" }], "nothing is cached");
  // Paths that cannot be codes are the same 404.
  for (const path of ["/ab", `/${"x".repeat(65)}`, "/a.b", "/%20%20%20", "/favicon.ico"]) {
    await assertNotFound(await fx.get(path));
  }
});

Deno.test("a miss is not cached: a code created after a 404 redirects at once", async () => {
  await using fx = await linkApp();
  await assertNotFound(await fx.get("/later"));
  await assertNotFound(await fx.get("/later/info"));
  await create(fx, { url: "https://example.com/later", code: "later" });
  const res = await fx.get("/later");
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "https://example.com/later");
  assert.equal((await fx.get("/later/info")).status, 200);
});

Deno.test("the cache TTL never reaches past expiresAt", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache, cacheTtlSeconds: 3600 });
  const expiresAt = new Date(Date.now() + 10_000).toISOString();
  const code = await create(fx, { url: "https://example.com/", expiresAt });
  const before = Date.now();
  assert.equal((await fx.get(`/${code}`)).status, 302);
  const after = Date.now();
  const set = cache.calls.find((c) => c.op === "add");
  // What was left of the link's life at the redirect, however long the requests took.
  const left = Date.parse(expiresAt);
  assert.ok(
    set?.ttlMs !== undefined && set.ttlMs <= left - before && set.ttlMs >= left - after,
    `${set?.ttlMs} not within [${left - after}, ${left - before}]`,
  );
  const never = await create(fx, { url: "https://example.org/" });
  assert.equal((await fx.get(`/${never}`)).status, 302);
  assert.equal(cache.calls.filter((c) => c.op === "add")[1].ttlMs, 3_600_000);
});

Deno.test("an expired link redirects no more (404 Link expired), even after it was cached", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache });
  const expiresAt = new Date(Date.now() + 300).toISOString();
  const code = await create(fx, { url: "https://example.com/", expiresAt });
  assert.equal((await fx.get(`/${code}`)).status, 302, "live, and now cached");
  assert.equal((await fx.get(`/${code}/info`)).status, 200);
  await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 20));
  await assertNotFound(await fx.get(`/${code}`), "Link expired");
  assert.equal(cache.calls.filter((c) => c.op === "add").length, 1, "never cached again");

  // A row stored already expired (as after a long downtime) is never served or cached.
  await insertRow(fx.db, "old-link", "https://example.com/old", "2001-01-01T00:00:00.000Z");
  await assertNotFound(await fx.get("/old-link"), "Link expired");
  assert.equal(cache.calls.filter((c) => c.op === "add").length, 1);
});

Deno.test("an expired code stays taken", async () => {
  await using fx = await linkApp();
  await insertRow(fx.db, "gone", "https://example.com/old", "2001-01-01T00:00:00.000Z");
  const res = await fx.shorten({ url: "https://example.com/new", code: "gone" });
  assert.equal(res.status, 400);
  assert.equal((await res.json()).error, "Code already in use");
});

Deno.test("GET /:code/info is 200 with the link record", async () => {
  await using fx = await linkApp();
  const created = await (await fx.shorten({
    url: "https://example.com/info",
    code: "about",
    expiresAt: "2999-01-01T00:00:00Z",
  })).json();
  const res = await fx.get("/about/info");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  const info = await res.json();
  assert.equal(info.clicksByDay.length, 30);
  assert.ok(info.clicksByDay.every((d: { clicks: number }) => d.clicks === 0));
  delete info.clicksByDay;
  assert.deepEqual(info, {
    code: "about",
    url: "https://example.com/info",
    createdAt: created.createdAt,
    expiresAt: "2999-01-01T00:00:00.000Z",
    expired: false,
    passwordProtected: false,
    maxClicks: null,
    clicksLeft: null,
    utm: null,
    totalClicks: 0,
    lastClickAt: null,
    topReferrers: [],
  });
  await assertNotFound(await fx.get("/absent/info"));
});

Deno.test("the app's own routes are not shadowed by codes", async () => {
  await using fx = await linkApp();
  const root = await fx.get("/");
  assert.equal(root.status, 200);
  assert.equal((await root.json()).name, "link-shortener");
  const spec = await fx.get("/openapi.json");
  assert.equal(spec.status, 200);
  assert.ok((await spec.json()).paths["/shorten"]);
  const docs = await fx.get("/docs");
  assert.equal(docs.status, 200);
  assert.match(docs.headers.get("content-type") ?? "", /text\/html/);
  await docs.body?.cancel();
  const unknown = await fx.get("/a/b/c");
  assert.equal(unknown.status, 404);
  assert.equal((await unknown.json()).code, "NOT_FOUND");
  const wrongMethod = await fx.app.request(`${ORIGIN}/shorten`);
  assert.equal(wrongMethod.status, 404, "GET /shorten is no code: reserved");
  await wrongMethod.body?.cancel();
});

Deno.test("a failing cache is logged and the redirect is served from libSQL", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache });
  const code = await create(fx, { url: "https://example.com/" });
  cache.failWith = new Error("cache is down");
  const res = await fx.get(`/${code}`);
  assert.equal(res.status, 302);
  assert.equal(res.headers.get("location"), "https://example.com/");
  const failures = fx.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "cache_error");
  assert.deepEqual(failures.map((f) => [f.op, f.code, f.level]), [["get", code, "warn"]]);
  assert.match(failures[0].message, /cache is down/);
  assert.deepEqual(cache.calls.map((c) => c.op), ["get"], "a failed cache is not written to");
  await assertNotFound(await fx.get("/unknown1"));
});

Deno.test("a cache that fails only on write is logged and the redirect still works", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache });
  const code = await create(fx, { url: "https://example.com/" });
  cache.failWith = new Error("read-only replica");
  cache.failOps.add("add");
  const res = await fx.get(`/${code}`);
  assert.equal(res.status, 302);
  const failures = fx.logs.map((l) => JSON.parse(l)).filter((l) => l.event === "cache_error");
  assert.deepEqual(failures.map((f) => f.op), ["add"]);
  assert.deepEqual(cache.calls.map((c) => c.op), ["get", "add"]);
});

Deno.test("a failing libSQL is 500 DATABASE_ERROR, but cached links still redirect", async () => {
  await using fx = await linkApp();
  const code = await create(fx, { url: "https://example.com/" });
  assert.equal((await fx.get(`/${code}`)).status, 302);
  fx.db.close();
  const cached = await fx.get(`/${code}`);
  assert.equal(cached.status, 302, "served from the cache");
  for (const path of ["/notcached", `/${code}/info`]) {
    const res = await fx.get(path);
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), { error: "Database error", code: "DATABASE_ERROR" });
  }
});
