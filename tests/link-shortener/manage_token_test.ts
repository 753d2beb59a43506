/**
 * Link management with the manage token: `PATCH` and `DELETE /:code` with
 * `Authorization: Bearer`, refused with 401 (nothing changed) without the right token; the
 * cache entry removed before the answer, so no redirect after it serves the old target, even
 * with lookups racing the change (in-memory and Upstash caches).
 */
import assert from "node:assert/strict";
import { BreakerCache, UpstashCache } from "../../shared/bindings/cache.ts";
import {
  bearerToken,
  hashManageToken,
  newManageToken,
  tokenMatches,
} from "../../functions/link-shortener/manage_token.ts";
import { startUpstashFake } from "../support/upstash_fake.ts";
import { type LinkApp, linkApp, ORIGIN, RecordingCache } from "./app_fixture.ts";

const UNAUTHORIZED = { error: "Missing or invalid manage token", code: "INVALID_INPUT" };

async function create(fx: LinkApp, body: Record<string, unknown>) {
  const res = await fx.shorten(body);
  assert.equal(res.status, 201);
  return await res.json() as { code: string; manageToken: string; url: string };
}

function manage(fx: LinkApp, method: string, code: string, token: string | null, body?: unknown) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return fx.app.request(`${ORIGIN}/${code}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  });
}

async function location(fx: LinkApp, code: string): Promise<string | null> {
  const res = await fx.app.request(`${ORIGIN}/${code}`);
  await res.body?.cancel();
  return res.headers.get("location");
}

Deno.test("tokens: 256 random bits, SHA-256 stored, Bearer parsing, comparison", async () => {
  const a = newManageToken();
  assert.match(a, /^[A-Za-z0-9_-]{43}$/);
  assert.notEqual(a, newManageToken());
  const hash = await hashManageToken(a);
  assert.match(hash, /^[0-9a-f]{64}$/);
  assert.ok(await tokenMatches(a, hash));
  assert.ok(!await tokenMatches(newManageToken(), hash));
  assert.ok(!await tokenMatches(a, null));
  assert.ok(!await tokenMatches(null, hash));
  assert.equal(bearerToken(`Bearer ${a}`), a);
  assert.equal(bearerToken(`bearer  ${a} `), a);
  for (const bad of [undefined, "", a, `Basic ${a}`, "Bearer", "Bearer a b", "Bearer ä"]) {
    assert.equal(bearerToken(bad), null, String(bad));
  }
});

Deno.test("PATCH and DELETE without the right token: 401, nothing changed", async () => {
  await using fx = await linkApp();
  const mine = await create(fx, { url: "https://example.com/mine", code: "mine" });
  const other = await create(fx, { url: "https://example.com/other" });
  for (const token of [null, "", "wrong-token", other.manageToken, mine.manageToken + "x"]) {
    for (const method of ["PATCH", "DELETE"]) {
      const res = await manage(fx, method, "mine", token, { url: "https://evil.example/" });
      assert.equal(res.status, 401, `${method} ${token}`);
      assert.deepEqual(await res.json(), UNAUTHORIZED);
    }
  }
  const basic = await fx.app.request(`${ORIGIN}/mine`, {
    method: "DELETE",
    headers: { authorization: `Basic ${mine.manageToken}` },
  });
  assert.equal(basic.status, 401);
  await basic.body?.cancel();
  assert.equal(await location(fx, "mine"), "https://example.com/mine");
  const unknown = await manage(fx, "DELETE", "nobody", mine.manageToken);
  assert.equal(unknown.status, 404);
  assert.deepEqual(await unknown.json(), { error: "Link not found", code: "NOT_FOUND" });
});

Deno.test("PATCH changes url and/or expiresAt; bad input is 400 and changes nothing", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache });
  const link = await create(fx, { url: "https://example.com/old", code: "movable" });
  assert.equal(await location(fx, "movable"), "https://example.com/old", "now cached");
  const bad: [unknown, number, string, string][] = [
    [{}, 400, "INVALID_INPUT", "Give url and/or expiresAt to change"],
    [{ url: "ftp://x/" }, 400, "INVALID_URL", "Missing or invalid url in body"],
    [{ url: `${ORIGIN}/loop` }, 400, "INVALID_URL", "url must not point at this link shortener"],
    [{ expiresAt: "2000-01-01" }, 400, "INVALID_INPUT", "expiresAt must be in the future"],
    [[1], 400, "INVALID_INPUT", "Body must be a JSON object"],
  ];
  for (const [body, status, code, error] of bad) {
    const res = await manage(fx, "PATCH", "movable", link.manageToken, body);
    assert.equal(res.status, status, JSON.stringify(body));
    assert.deepEqual(await res.json(), { error, code });
  }
  assert.equal(cache.calls.filter((c) => c.op === "delete").length, 0, "not even invalidated");
  assert.equal(await location(fx, "movable"), "https://example.com/old");

  const res = await manage(fx, "PATCH", "movable", link.manageToken, {
    url: "https://example.com/new",
  });
  assert.equal(res.status, 200);
  const changed = await res.json();
  assert.equal(changed.url, "https://example.com/new");
  assert.equal(changed.expiresAt, null);
  assert.equal(await location(fx, "movable"), "https://example.com/new");

  const expiry = await manage(fx, "PATCH", "movable", link.manageToken, {
    expiresAt: "2999-01-01",
  });
  assert.equal((await expiry.json()).expiresAt, "2999-01-01T00:00:00.000Z");
  const cleared = await manage(fx, "PATCH", "movable", link.manageToken, { expiresAt: null });
  const body = await cleared.json();
  assert.equal(body.expiresAt, null);
  assert.equal(body.url, "https://example.com/new", "the url stays");
});

Deno.test("PATCH can revive an expired link", async () => {
  await using fx = await linkApp();
  const link = await create(fx, {
    url: "https://example.com/",
    expiresAt: new Date(Date.now() + 200).toISOString(),
  });
  await new Promise((r) => setTimeout(r, 250));
  assert.equal((await fx.app.request(`${ORIGIN}/${link.code}`)).status, 404);
  const res = await manage(fx, "PATCH", link.code, link.manageToken, { expiresAt: null });
  assert.equal(res.status, 200);
  await res.body?.cancel();
  assert.equal(await location(fx, link.code), "https://example.com/");
});

Deno.test("DELETE removes the link and its stats, before answering; the code is free again", async () => {
  await using fx = await linkApp();
  const link = await create(fx, { url: "https://example.com/", code: "gone-soon" });
  assert.equal(await location(fx, "gone-soon"), "https://example.com/");
  await fx.app.clicks.flush();
  const res = await manage(fx, "DELETE", "gone-soon", link.manageToken);
  assert.equal(res.status, 204);
  assert.equal(await res.text(), "");
  const after = await fx.app.request(`${ORIGIN}/gone-soon`);
  assert.equal(after.status, 404, "the cached entry went with it");
  await after.body?.cancel();
  assert.equal((await fx.get("/gone-soon/stats")).status, 404);
  const left = await fx.db.execute("SELECT count(*) AS n FROM link_clicks");
  assert.equal(left.rows[0].n, 0);
  const again = await manage(fx, "DELETE", "gone-soon", link.manageToken);
  assert.equal(again.status, 404);
  await again.body?.cancel();
  assert.equal((await fx.shorten({ url: "https://example.org/", code: "gone-soon" })).status, 201);
});

Deno.test("a cache that cannot be invalidated: 500 STORAGE_ERROR and nothing changed", async () => {
  const cache = new RecordingCache();
  await using fx = await linkApp({ CACHE: cache });
  const link = await create(fx, { url: "https://example.com/kept", code: "kept" });
  cache.failWith = new Error("cache down");
  cache.failOps = new Set(["set"]); // the change's marker cannot be written
  for (const [method, body] of [["PATCH", { url: "https://example.com/x" }], ["DELETE"]] as const) {
    const res = await manage(fx, method, "kept", link.manageToken, body);
    assert.equal(res.status, 500);
    assert.deepEqual(await res.json(), {
      error: "Cache unavailable: the link was not changed",
      code: "STORAGE_ERROR",
    });
  }
  cache.failWith = null;
  assert.equal(await location(fx, "kept"), "https://example.com/kept");
});

/**
 * GETs run back to back while PATCHes change the target; every GET that started after a
 * PATCH answered must see that PATCH's target (or a later one).
 */
async function raceGetsAndPatches(fx: LinkApp, code: string, token: string, rounds: number) {
  let answered = 0; // the last PATCH round that has answered
  let stop = false;
  const stale: string[] = [];
  let gets = 0;
  const getter = async () => {
    while (!stop) {
      const seen = answered;
      const loc = await location(fx, code);
      gets++;
      const round = Number(loc?.split("/round/")[1] ?? -1);
      if (round < seen) stale.push(`started after round ${seen} answered, got ${loc}`);
      // A hot-path hit resolves without I/O: yield, or the PATCH's I/O would never run.
      await new Promise((r) => setTimeout(r, 0));
    }
  };
  const getters = Array.from({ length: 8 }, getter);
  for (let round = 1; round <= rounds; round++) {
    const res = await manage(fx, "PATCH", code, token, {
      url: `https://example.com/round/${round}`,
    });
    assert.equal(res.status, 200);
    await res.body?.cancel();
    answered = round;
    await new Promise((r) => setTimeout(r, 5));
  }
  stop = true;
  await Promise.all(getters);
  assert.deepEqual(stale, []);
  assert.ok(gets > rounds * 4, `${gets} GETs raced ${rounds} PATCHes`);
}

Deno.test("concurrent PATCH and GET (in-memory cache): no stale target after the PATCH answered", async () => {
  await using fx = await linkApp();
  const link = await create(fx, { url: "https://example.com/round/0" });
  await raceGetsAndPatches(fx, link.code, link.manageToken, 30);
});

Deno.test("concurrent PATCH and GET (Upstash cache): no stale target after the PATCH answered", async () => {
  const fake = await startUpstashFake();
  try {
    const cache = new BreakerCache(
      new UpstashCache({ url: fake.url, token: fake.token, timeoutMs: 1_000 }),
      { timeoutMs: 1_050 },
    );
    await using fx = await linkApp({ CACHE: cache });
    const link = await create(fx, { url: "https://example.com/round/0" });
    await raceGetsAndPatches(fx, link.code, link.manageToken, 20);
    // Each change leaves its marker, which no lookup overwrites (they fill with SET NX).
    assert.ok(fake.commands.some((c) => c[0] === "SET" && c[2] === "!changed"));
    assert.ok(
      !fake.commands.some((c) => c[0] === "SET" && c[2] !== "!changed" && !c.includes("nx")),
    );
  } finally {
    await fake.close();
  }
});
