/**
 * `POST /shorten/bulk` on a libSQL file: JSON arrays and CSV, one result per input in order
 * (the link with its own manage token, or the row's own contract error), bad rows never
 * failing the others, and the body-level 400/413s.
 */
import assert from "node:assert/strict";
import { MAX_BULK_BYTES, MAX_BULK_ROWS } from "../../functions/link-shortener/bulk.ts";
import { linkApp, linkCount, ORIGIN } from "./app_fixture.ts";

type Fx = Awaited<ReturnType<typeof linkApp>>;

function bulk(fx: Fx, body: string, contentType = "application/json") {
  return fx.app.request(`${ORIGIN}/shorten/bulk`, {
    method: "POST",
    headers: { "content-type": contentType },
    body,
  });
}

Deno.test("bulk JSON: one result per row in order; bad rows fail alone", async () => {
  await using fx = await linkApp();
  await fx.shorten({ url: "https://example.com/taken", code: "taken" });
  const rows = [
    { url: "https://example.com/1" },
    { url: "not a url" },
    { url: "https://example.com/2", code: "mine", expiresAt: "2999-01-01T00:00:00Z" },
    { url: "https://example.com/3", code: "taken" },
    { url: "https://example.com/4", code: "mine" },
    "just a string",
    { url: "https://example.com/5", maxClicks: 2, utm: { source: "bulk" } },
    { url: "https://example.com/6", password: "x" },
    { url: `${ORIGIN}/loop` },
    { url: "https://example.com/7", expiresAt: "2000-01-01" },
  ];
  const res = await bulk(fx, JSON.stringify(rows));
  assert.equal(res.status, 200);
  const { results } = await res.json();
  assert.equal(results.length, rows.length);
  assert.match(results[0].code, /^[0-9A-Za-z]{7}$/);
  assert.equal(results[0].url, "https://example.com/1");
  assert.match(results[0].manageToken, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(results[0].shortUrl, `${ORIGIN}/${results[0].code}`);
  assert.deepEqual(results[1], { error: "Missing or invalid url in body", code: "INVALID_URL" });
  assert.equal(results[2].code, "mine");
  assert.equal(results[2].expiresAt, "2999-01-01T00:00:00.000Z");
  assert.deepEqual(results[3], { error: "Code already in use", code: "INVALID_INPUT" });
  assert.deepEqual(results[4], { error: "Code already in use", code: "INVALID_INPUT" });
  assert.deepEqual(results[5], { error: "Body must be a JSON object", code: "INVALID_INPUT" });
  assert.equal(results[6].url, "https://example.com/5?utm_source=bulk");
  assert.equal(results[6].maxClicks, 2);
  assert.equal(results[7].code, "INVALID_INPUT");
  assert.match(results[7].error, /^password is not accepted in bulk/);
  assert.deepEqual(results[8], {
    error: "url must not point at this link shortener",
    code: "INVALID_URL",
  });
  assert.deepEqual(results[9], { error: "expiresAt must be in the future", code: "INVALID_INPUT" });
  // Each created link works, with its own token.
  const created = results.filter((r: { manageToken?: string }) => r.manageToken);
  assert.equal(created.length, 3);
  assert.equal(new Set(created.map((r: { manageToken: string }) => r.manageToken)).size, 3);
  for (const link of created) {
    const go = await fx.get(`/${link.code}`);
    assert.equal(go.status, 302);
    assert.equal(go.headers.get("location"), link.url);
  }
  const del = await fx.app.request(`${ORIGIN}/mine`, {
    method: "DELETE",
    headers: { authorization: `Bearer ${results[2].manageToken}` },
  });
  assert.equal(del.status, 204);
  assert.equal(await linkCount(fx.db), 1 + 3 - 1);
});

Deno.test("bulk CSV: url column, optional code and expiresAt; empty cells are absent", async () => {
  await using fx = await linkApp();
  const csv = "\ufeffurl,code,expiresAt\r\n" +
    "https://example.com/a,,\r\n" +
    "https://example.com/b?x=1&y=2,csv-b,2999-01-01\r\n" +
    "ftp://example.com/c,,\r\n" +
    '"https://example.com/d,with,commas",csv-d,\r\n';
  const res = await bulk(fx, csv, "text/csv; charset=utf-8");
  assert.equal(res.status, 200, await res.clone().text());
  const { results } = await res.json();
  assert.equal(results.length, 4);
  assert.equal(results[0].url, "https://example.com/a");
  assert.equal(results[0].expiresAt, null);
  assert.equal(results[1].code, "csv-b");
  assert.equal(results[1].url, "https://example.com/b?x=1&y=2");
  assert.equal(results[1].expiresAt, "2999-01-01T00:00:00.000Z");
  assert.deepEqual(results[2], { error: "Missing or invalid url in body", code: "INVALID_URL" });
  assert.equal(results[3].url, "https://example.com/d,with,commas");
  assert.equal(
    (await fx.get("/csv-d")).headers.get("location"),
    "https://example.com/d,with,commas",
  );

  for (
    const [body, error] of [
      ["link,code\nhttps://example.com/,x\n", /^CSV needs a header row with a url column/],
      ["url,owner\nhttps://example.com/,me\n", /^CSV needs a header row with a url column/],
      ['url\n"https://example.com/\n', /^Invalid CSV/],
    ] as const
  ) {
    const bad = await bulk(fx, body, "text/csv");
    assert.equal(bad.status, 400, body);
    assert.match((await bad.json()).error, error);
  }
});

Deno.test("bulk: over 1,000 rows or over the byte limit is 413 at once, nothing stored", async () => {
  await using fx = await linkApp();
  const many = Array.from({ length: MAX_BULK_ROWS + 1 }, (_, i) => ({ url: `https://e.com/${i}` }));
  const res = await bulk(fx, JSON.stringify(many));
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), {
    error: "At most 1000 links per request",
    code: "INVALID_INPUT",
  });
  const csv = "url\n" + many.map((r) => r.url).join("\n");
  const csvRes = await bulk(fx, csv, "text/csv");
  assert.equal(csvRes.status, 413);
  const huge = JSON.stringify([{ url: `https://example.com/${"x".repeat(MAX_BULK_BYTES)}` }]);
  const big = await bulk(fx, huge);
  assert.equal(big.status, 413);
  assert.equal((await big.json()).code, "INVALID_INPUT");
  assert.equal(await linkCount(fx.db), 0);
  for (
    const [body, error] of [["{", "Invalid JSON"], [
      '{"url":"https://e.com/"}',
      /JSON array/,
    ]] as const
  ) {
    const bad = await bulk(fx, body);
    assert.equal(bad.status, 400);
    const msg = (await bad.json()).error;
    if (typeof error === "string") assert.equal(msg, error);
    else assert.match(msg, error);
  }
});

Deno.test("bulk: 1,000 rows in one request, all stored, in order", async () => {
  await using fx = await linkApp();
  const rows = Array.from(
    { length: MAX_BULK_ROWS },
    (_, i) => ({ url: `https://example.com/n/${i}` }),
  );
  const res = await bulk(fx, JSON.stringify(rows));
  assert.equal(res.status, 200);
  const { results } = await res.json();
  assert.equal(results.length, MAX_BULK_ROWS);
  for (const [i, r] of results.entries()) assert.equal(r.url, rows[i].url);
  assert.equal(new Set(results.map((r: { code: string }) => r.code)).size, MAX_BULK_ROWS);
  assert.equal(await linkCount(fx.db), MAX_BULK_ROWS);
});
