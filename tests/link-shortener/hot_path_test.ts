/**
 * The hot path answers in-process cache hits before the router: its response and log line
 * must be the routed ones, and everything it does not own must reach the router unchanged.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/bindings/cache.ts";
import { hotRedirect, isSyncReadable } from "../../functions/link-shortener/hot_path.ts";
import { linkApp, ORIGIN, RecordingCache } from "./app_fixture.ts";
import { assertMadeSince } from "../support/timestamps.ts";

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

function headersOf(res: Response): Record<string, string> {
  const out: Record<string, string> = {};
  res.headers.forEach((value, name) => out[name] = name === "x-request-id" ? "<id>" : value);
  return out;
}

Deno.test("a hot-path redirect has the routed redirect's status, headers and log line", async () => {
  const started = Date.now();
  // The routed answer: a miss of the in-process tier goes through the router.
  const routedCache = new RecordingCache();
  assert.ok(!isSyncReadable(routedCache));
  await using fx = await linkApp({ CACHE: routedCache });
  await fx.shorten({ url: "https://example.com/a?b=c", code: "same" });
  const routed = await fx.get("/same?utm=x");
  assert.equal(routedCache.calls[0]?.op, "get", "the routed answer asked the cache");

  const cache = new MemoryCache();
  await cache.set("link:same", "https://example.com/a?b=c", 60_000);
  const lines: string[] = [];
  const hot = hotRedirect(cache, (l) => lines.push(l))(new Request(`${ORIGIN}/same?utm=x`));
  assert.ok(hot, "answered by the hot path");

  assert.equal(hot.status, routed.status);
  assert.deepEqual(headersOf(hot), headersOf(routed));
  assert.match(hot.headers.get("x-request-id")!, UUID);
  assert.equal(await hot.text(), await routed.text());

  const routedLine = JSON.parse(fx.logs.at(-1)!);
  const hotLine = JSON.parse(lines[0]);
  assert.deepEqual(Object.keys(hotLine), Object.keys(routedLine));
  for (const key of ["method", "path", "status", "code"]) {
    assert.equal(hotLine[key], routedLine[key], key);
  }
  assert.equal(hotLine.requestId, hot.headers.get("x-request-id"));
  assertMadeSince(hotLine.time, started, "the log line's time");
  assert.equal(typeof hotLine.durationMs, "number");
});

Deno.test("the hot path leaves everything else to the router", async () => {
  const cache = new MemoryCache();
  await cache.set("link:code1", "https://example.com/", 60_000);
  const hot = hotRedirect(cache, () => {});
  const hit = hot(new Request(`${ORIGIN}/code1`, { method: "HEAD" }));
  assert.equal(hit?.status, 302);
  const passes: Request[] = [
    new Request(`${ORIGIN}/code1`, { method: "POST", body: "{}" }),
    new Request(`${ORIGIN}/code1`, { method: "OPTIONS" }),
    new Request(`${ORIGIN}/code1`, { headers: { "x-request-id": "trace-1" } }),
    new Request(`${ORIGIN}/missing`),
    new Request(`${ORIGIN}/code1/`),
    new Request(`${ORIGIN}/code1/info`),
    new Request(`${ORIGIN}/%63ode1`),
    new Request(`${ORIGIN}/`),
    new Request(`${ORIGIN}/docs`),
  ];
  for (const req of passes) assert.equal(hot(req), null, `${req.method} ${req.url}`);
});

Deno.test("through the app: hits take the hot path, a caller's X-Request-Id is still echoed", async () => {
  await using fx = await linkApp();
  assert.ok(isSyncReadable(fx.cache));
  await fx.shorten({ url: "https://example.com/", code: "traced" });
  assert.equal((await fx.get("/traced")).status, 302, "miss: routed, fills the cache");
  // With the row gone, only the cache can answer.
  await fx.db.execute("DELETE FROM links");
  const hit = await fx.get("/traced");
  assert.equal(hit.status, 302);
  assert.match(hit.headers.get("x-request-id")!, UUID);
  const traced = await fx.app.request(`${ORIGIN}/traced`, {
    headers: { "x-request-id": "trace-42" },
  });
  assert.equal(traced.status, 302);
  assert.equal(traced.headers.get("x-request-id"), "trace-42");
  assert.equal(traced.headers.get("location"), "https://example.com/");
});

Deno.test("the hot path never serves an entry past its TTL (so never past expiresAt)", async () => {
  let clock = 0;
  const cache = new MemoryCache(10, () => clock);
  await cache.set("link:brief", "https://example.com/", 100);
  const hot = hotRedirect(cache, () => {});
  assert.equal(hot(new Request(`${ORIGIN}/brief`))?.status, 302);
  clock = 100;
  assert.equal(hot(new Request(`${ORIGIN}/brief`)), null);
});

Deno.test("over HTTP: the hot path's redirect has the routed one's status, headers and log line", async () => {
  await using fx = await linkApp();
  await fx.shorten({ url: "https://example.com/wire?x=1", code: "wire1" });
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    fx.app.fetch,
  );
  const url = `http://127.0.0.1:${server.addr.port}/wire1`;
  const wire = async () => {
    const res = await fetch(url, { redirect: "manual" });
    await res.body?.cancel();
    const headers = [...res.headers].filter(([name]) => name !== "date");
    return { status: res.status, headers, id: res.headers.get("x-request-id") };
  };
  const routed = await wire(); // a miss: the router reads libSQL and fills the cache
  await fx.db.execute("DELETE FROM links"); // now only the cache can answer
  const hot = await wire();
  const again = await wire();
  assert.equal(hot.status, 302);
  const withoutId = (h: [string, string][]) => h.filter(([name]) => name !== "x-request-id");
  assert.deepEqual(withoutId(hot.headers), withoutId(routed.headers));
  assert.deepEqual(hot.headers.map(([name]) => name), routed.headers.map(([name]) => name));
  assert.match(hot.id!, UUID);
  assert.notEqual(hot.id, again.id, "a new id per request (the prebuilt response is copied)");
  assert.deepEqual(withoutId(again.headers), withoutId(hot.headers));
  const lines = fx.logs.map((l) => JSON.parse(l)).filter((l) => l.path === "/wire1");
  assert.equal(lines.length, 3, "one line per request");
  for (const line of lines.slice(1)) {
    assert.deepEqual(Object.keys(line), Object.keys(lines[0]));
    for (const key of ["method", "path", "status", "code"]) assert.equal(line[key], lines[0][key]);
  }
  assert.deepEqual(lines.map((l) => l.requestId), [routed.id, hot.id, again.id]);
});

Deno.test("the hot path answers each target with its own Location past its bound of prebuilt ones", () => {
  const cache = new MemoryCache(5_000);
  const count = 2_500;
  for (let i = 0; i < count; i++) {
    void cache.set(`link:code${i}`, `https://example.com/${i}`, 60_000);
  }
  const hot = hotRedirect(cache, () => {});
  const ids = new Set<string>();
  for (const round of [0, 1]) {
    for (let i = 0; i < count; i++) {
      const res = hot(new Request(`${ORIGIN}/code${i}`))!;
      assert.equal(res.status, 302);
      assert.deepEqual([...res.headers].map(([name]) => name), [
        "access-control-allow-origin",
        "access-control-expose-headers",
        "location",
        "x-request-id",
      ], `round ${round}, code${i}`);
      assert.equal(res.headers.get("location"), `https://example.com/${i}`);
      ids.add(res.headers.get("x-request-id")!);
    }
  }
  assert.equal(ids.size, 2 * count);
});

Deno.test("through the app: hot GETs count their clicks and referrers, HEADs are answered uncounted", async () => {
  await using fx = await linkApp();
  const { code } = await (await fx.shorten({ url: "https://example.com/counted" })).json();
  assert.equal((await fx.get(`/${code}`)).status, 302, "a miss, routed");
  assert.ok(await fx.cache.get(`link:${code}`), "now in the in-process tier");
  const referred = await fx.app.request(`${ORIGIN}/${code}`, {
    headers: { referer: "https://News.Example.org/post?id=1" },
  });
  assert.equal(referred.status, 302);
  const head = await fx.app.request(`${ORIGIN}/${code}`, { method: "HEAD" });
  assert.equal(head.status, 302);
  assert.equal(head.headers.get("location"), "https://example.com/counted");
  const stats = await (await fx.get(`/${code}/stats`)).json();
  assert.equal(stats.totalClicks, 2, "the routed GET and the hot GET, not the HEAD");
  assert.deepEqual(stats.topReferrers, [{ host: "news.example.org", clicks: 1 }]);
});
