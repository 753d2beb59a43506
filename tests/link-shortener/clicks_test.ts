/**
 * Click analytics: every redirect counted in memory (hot path and routed alike), flushed to
 * libSQL in batches, merged with what is pending in `/stats` and `/info`; referrers kept as
 * hosts only; a failed flush keeps its counts; expired links keep their stats.
 */
import assert from "node:assert/strict";
import { ClickCounter, referrerHost, utcDay } from "../../functions/link-shortener/clicks.ts";
import type { Db } from "../../shared/bindings/db.ts";
import { linkApp, ORIGIN, RecordingCache } from "./app_fixture.ts";
import { assertMadeSince } from "../support/timestamps.ts";

async function create(fx: Awaited<ReturnType<typeof linkApp>>, body: Record<string, unknown>) {
  const res = await fx.shorten(body);
  assert.equal(res.status, 201);
  return await res.json();
}

async function storedTotal(fx: Awaited<ReturnType<typeof linkApp>>, code: string) {
  const rs = await fx.db.execute({
    sql: "SELECT total FROM link_clicks WHERE code = ?",
    args: [code],
  });
  return rs.rows.length ? Number(rs.rows[0].total) : 0;
}

for (const hot of [true, false]) {
  const path = hot ? "the hot path (in-memory cache)" : "the router (cache without sync reads)";
  Deno.test(`1,000 concurrent redirects through ${path} count 1,000`, async () => {
    await using fx = await linkApp(hot ? {} : { CACHE: new RecordingCache() });
    const { code } = await create(fx, { url: "https://example.com/popular" });
    await (await fx.get(`/${code}`)).body?.cancel(); // now cached
    const responses = await Promise.all(
      Array.from({ length: 1000 }, () => fx.app.request(`${ORIGIN}/${code}`)),
    );
    assert.ok(responses.every((r) => r.status === 302));
    const stats = await (await fx.get(`/${code}/stats`)).json();
    assert.equal(stats.totalClicks, 1001, "pending counts are part of the stats");
    assert.equal(await storedTotal(fx, code), 0, "nothing written on the redirect path");
    await fx.app.clicks.flush();
    assert.equal(await storedTotal(fx, code), 1001);
    assert.equal((await (await fx.get(`/${code}/stats`)).json()).totalClicks, 1001);
    // HEAD is answered but not counted.
    const head = await fx.app.request(`${ORIGIN}/${code}`, { method: "HEAD" });
    assert.equal(head.status, 302);
    assert.equal((await (await fx.get(`/${code}/stats`)).json()).totalClicks, 1001);
  });
}

Deno.test("stats: per UTC day for 30 days, last click, top referrer hosts (hosts only)", async () => {
  await using fx = await linkApp();
  const { code } = await create(fx, { url: "https://example.com/" });
  const started = Date.now();
  const refs = [
    "https://news.example.com/item?id=1&user=alice",
    "https://news.example.com/item?id=2",
    "https://NEWS.example.com./x",
    "https://blog.example.org/post",
    "android-app://com.example/",
    "not a url",
  ];
  for (const referer of refs) {
    const res = await fx.app.request(`${ORIGIN}/${code}`, { headers: { referer } });
    assert.equal(res.status, 302);
  }
  await fx.app.request(`${ORIGIN}/${code}`);
  await fx.app.clicks.flush();
  await fx.app.request(`${ORIGIN}/${code}`, { headers: { referer: "https://blog.example.org/" } });
  const stats = await (await fx.get(`/${code}/stats`)).json();
  assert.equal(stats.code, code);
  assert.equal(stats.totalClicks, 8);
  assert.deepEqual(stats.topReferrers, [
    { host: "news.example.com", clicks: 3 },
    { host: "blog.example.org", clicks: 2 },
  ]);
  assert.equal(stats.clicksByDay.length, 30);
  const today = new Date().toISOString().slice(0, 10);
  assert.deepEqual(stats.clicksByDay.at(-1), { date: today, clicks: 8 });
  assert.equal(
    stats.clicksByDay[0].date,
    new Date(Date.now() - 29 * 86_400_000).toISOString().slice(0, 10),
  );
  assertMadeSince(stats.lastClickAt, started, "lastClickAt");
  // Nothing but hosts is stored: no paths, queries, addresses or agents.
  const dump = JSON.stringify((await fx.db.execute("SELECT * FROM link_referrers")).rows);
  assert.doesNotMatch(dump, /alice|item|id=|post/);
  const info = await (await fx.get(`/${code}/info`)).json();
  assert.equal(info.totalClicks, 8);
  assert.deepEqual(info.topReferrers, stats.topReferrers);
});

Deno.test("stats: days older than 30 are left out; flushed days add up with pending ones", async () => {
  await using fx = await linkApp();
  const { code } = await create(fx, { url: "https://example.com/" });
  const now = Date.now();
  for (const ageDays of [0, 0, 3, 29, 30, 45]) {
    fx.app.clicks.record(code, null, now - ageDays * 86_400_000);
  }
  await fx.app.clicks.flush();
  fx.app.clicks.record(code, null, now - 3 * 86_400_000);
  const stats = await (await fx.get(`/${code}/stats`)).json();
  assert.equal(stats.totalClicks, 7, "the total counts every click");
  const byDay = Object.fromEntries(
    stats.clicksByDay.map((d: { date: string; clicks: number }) => [d.date, d.clicks]),
  );
  assert.equal(byDay[utcDay(now)], 2);
  assert.equal(byDay[utcDay(now - 3 * 86_400_000)], 2);
  assert.equal(byDay[utcDay(now - 29 * 86_400_000)], 1);
  assert.equal(stats.clicksByDay.reduce((n: number, d: { clicks: number }) => n + d.clicks, 0), 5);
});

Deno.test("an expired link keeps its stats: info says expired, the redirect says Link expired", async () => {
  await using fx = await linkApp();
  const expiresAt = new Date(Date.now() + 400).toISOString();
  const { code } = await create(fx, { url: "https://example.com/", expiresAt });
  for (let i = 0; i < 3; i++) await (await fx.get(`/${code}`)).body?.cancel();
  await fx.app.clicks.flush();
  await new Promise((r) => setTimeout(r, Date.parse(expiresAt) - Date.now() + 20));
  const res = await fx.get(`/${code}`);
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Link expired", code: "NOT_FOUND" });
  const info = await (await fx.get(`/${code}/info`)).json();
  assert.equal(info.expired, true);
  assert.equal(info.totalClicks, 3, "the 404 is not a click");
  assert.equal((await (await fx.get(`/${code}/stats`)).json()).totalClicks, 3);
});

Deno.test("ClickCounter: a failed flush keeps its counts for the next one", async () => {
  let fail = true;
  const written: unknown[][] = [];
  const db = {
    batch: (stmts: { args: unknown[] }[]) => {
      if (fail) return Promise.reject(new Error("database down"));
      written.push(...stmts.map((s) => s.args));
      return Promise.resolve([]);
    },
  } as unknown as Db;
  const logs: string[] = [];
  const counter = new ClickCounter(db, { log: (l) => logs.push(l) });
  counter.record("abc", null, Date.parse("2030-01-02T10:00:00Z"));
  counter.record("abc", "https://x.example/", Date.parse("2030-01-02T11:00:00Z"));
  await assert.rejects(counter.flush(), /database down/);
  assert.equal(counter.pendingLinks, 1);
  assert.match(logs[0], /click_flush_failed/);
  counter.record("abc", null, Date.parse("2030-01-03T09:00:00Z"));
  fail = false;
  await counter.flush();
  assert.equal(counter.pendingLinks, 0);
  assert.deepEqual(written[0], ["abc", 3, "2030-01-03T09:00:00.000Z", "abc"]);
  assert.deepEqual(written.slice(1).map((a) => a.slice(1, 3)), [
    ["2030-01-02", 2],
    ["2030-01-03", 1],
    ["x.example", 1],
  ]);
});

Deno.test("referrerHost: http(s) hosts only, lower case, no trailing dot", () => {
  assert.equal(referrerHost("https://Example.COM./a?b"), "example.com");
  assert.equal(referrerHost("http://[::1]:8080/"), "[::1]");
  assert.equal(referrerHost("android-app://com.x/"), null);
  assert.equal(referrerHost("nope"), null);
  assert.equal(referrerHost(null), null);
  // Not host names (real ones stop at 253 characters, labels at 63): counted as "(other)".
  const label = "a".repeat(63);
  const longest = [label, label, label, "a".repeat(61)].join(".");
  assert.equal(longest.length, 253);
  assert.equal(referrerHost(`https://${longest}/`), longest);
  assert.equal(referrerHost(`https://${longest}a/`), "(other)");
  assert.equal(referrerHost(`https://${"a".repeat(8000)}.com/`), "(other)");
  assert.equal(referrerHost(`https://${"a".repeat(64)}.com/`), "(other)");
  assert.equal(referrerHost("https://a%2A.com/"), "(other)");
});

Deno.test("clicks of a deleted link leave nothing behind for a new link with its code", async () => {
  await using fx = await linkApp();
  const first = await create(fx, { url: "https://example.com/", code: "reborn" });
  await (await fx.get("/reborn")).body?.cancel();
  await fx.app.clicks.flush();
  await (await fx.get("/reborn")).body?.cancel(); // pending when the link goes
  const del = await fx.app.request(`${ORIGIN}/reborn`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${first.manageToken}` },
  });
  assert.equal(del.status, 204);
  await create(fx, { url: "https://example.org/", code: "reborn" });
  await fx.app.clicks.flush();
  assert.equal((await (await fx.get("/reborn/stats")).json()).totalClicks, 0);
});

Deno.test("ClickCounter: runs of one link across flushes and a forget lose and double nothing", async () => {
  await using fx = await linkApp();
  const { code } = await create(fx, { url: "https://example.com/burst" });
  const other = (await create(fx, { url: "https://example.com/other" })).code;
  const clicks = new ClickCounter(fx.db);
  for (let i = 0; i < 3; i++) clicks.record(code, null);
  await clicks.flush();
  for (let i = 0; i < 2; i++) clicks.record(code, null); // the same code right after a flush
  assert.equal(clicks.pendingLinks, 1, "counted in the new batch");
  clicks.record(other, null);
  clicks.record(code, null);
  await clicks.flush();
  assert.equal(await storedTotal(fx, code), 6);
  assert.equal(await storedTotal(fx, other), 1);
  clicks.record(code, null);
  clicks.forget(code);
  clicks.record(code, null); // after a forget: a fresh count, not the forgotten one
  assert.equal(clicks.pendingLinks, 1);
  await clicks.flush();
  assert.equal(await storedTotal(fx, code), 7);
});
