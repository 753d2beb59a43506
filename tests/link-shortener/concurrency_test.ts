/**
 * Concurrent writers: distinct URLs all get distinct stored codes, and of many claims of one
 * custom code exactly one wins, decided by the unique index (also across two app instances
 * with their own connections to the same file, as two processes would be).
 */
import assert from "node:assert/strict";
import { linkApp, linkCount, ORIGIN } from "./app_fixture.ts";

Deno.test("1,000 concurrent POST /shorten of distinct URLs: 1,000 distinct codes, all in libSQL", async () => {
  await using fx = await linkApp();
  const urls = Array.from({ length: 1000 }, (_, i) => `https://example.com/item/${i}`);
  const responses = await Promise.all(urls.map((url) => fx.shorten({ url })));
  const bodies = await Promise.all(responses.map((r) => r.json()));
  assert.deepEqual(responses.map((r) => r.status), urls.map(() => 201));
  const codes = new Set(bodies.map((b) => b.code));
  assert.equal(codes.size, 1000, "every code distinct");
  assert.equal(await linkCount(fx.db), 1000);
  const rs = await fx.db.execute("SELECT code, url FROM links");
  const stored = new Map(rs.rows.map((r) => [String(r.code), String(r.url)]));
  for (const [i, body] of bodies.entries()) {
    assert.equal(body.url, urls[i]);
    assert.equal(stored.get(body.code), urls[i], `${body.code} stored with its URL`);
  }
});

Deno.test("200 concurrent claims of one custom code (two app instances): exactly one 201", async () => {
  await using fx = await linkApp();
  // A second instance with its own libSQL client on the same file.
  await using other = await linkApp({ dir: fx.dir });
  const claims = Array.from(
    { length: 200 },
    (_, i) =>
      (i % 2 ? other : fx).shorten({ url: `https://example.com/claim/${i}`, code: "contested" }),
  );
  const responses = await Promise.all(claims);
  const bodies = await Promise.all(responses.map((r) => r.json()));
  const winners = responses.flatMap((r, i) => r.status === 201 ? [i] : []);
  assert.equal(winners.length, 1, `winners: ${winners}`);
  for (const [i, res] of responses.entries()) {
    if (i === winners[0]) continue;
    assert.equal(res.status, 400);
    assert.deepEqual(bodies[i], { error: "Code already in use", code: "INVALID_INPUT" });
  }
  const rs = await fx.db.execute("SELECT url FROM links WHERE code = 'contested'");
  assert.equal(rs.rows.length, 1);
  assert.equal(rs.rows[0].url, `https://example.com/claim/${winners[0]}`);
  const res = await fx.get("/contested");
  assert.equal(res.headers.get("location"), `https://example.com/claim/${winners[0]}`);
});

Deno.test("100 concurrent POSTs of one URL make 100 links, each with its own token", async () => {
  await using fx = await linkApp();
  const responses = await Promise.all(
    Array.from({ length: 100 }, () => fx.shorten({ url: "https://example.com/popular" })),
  );
  const bodies = await Promise.all(responses.map((r) => r.json()));
  assert.equal(responses.filter((r) => r.status === 201).length, 100);
  assert.equal(new Set(bodies.map((b) => b.shortUrl)).size, 100);
  assert.equal(new Set(bodies.map((b) => b.manageToken)).size, 100);
  assert.ok(bodies[0].shortUrl.startsWith(`${ORIGIN}/`));
  assert.equal(await linkCount(fx.db), 100);
});
