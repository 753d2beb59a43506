/** `POST /shorten`, black-box through the app on a libSQL file: every row of the contract. */
import assert from "node:assert/strict";
import { linkApp, linkCount, ORIGIN } from "./app_fixture.ts";

const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Asserts an error response: status, exact body, JSON content type. */
async function assertError(res: Response, status: number, code: string, error: string) {
  assert.equal(res.status, status);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.deepEqual(await res.json(), { error, code });
}

Deno.test("a new URL is 201 with a random 7-character base62 code, stored in libSQL", async () => {
  await using fx = await linkApp();
  const before = Date.now();
  const res = await fx.shorten({ url: "https://example.com/a/long/path?q=1" });
  assert.equal(res.status, 201);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), [
    "code",
    "createdAt",
    "expiresAt",
    "manageToken",
    "maxClicks",
    "passwordProtected",
    "shortUrl",
    "url",
    "utm",
  ]);
  assert.match(body.code, /^[0-9A-Za-z]{7}$/);
  assert.match(body.manageToken, /^[A-Za-z0-9_-]{43}$/);
  assert.equal(body.url, "https://example.com/a/long/path?q=1");
  assert.equal(body.shortUrl, `${ORIGIN}/${body.code}`);
  assert.match(body.createdAt, ISO);
  assert.ok(Date.parse(body.createdAt) >= before - 1 && Date.parse(body.createdAt) <= Date.now());
  assert.equal(body.expiresAt, null);
  const rs = await fx.db.execute({
    sql: "SELECT url, manage_hash FROM links WHERE code = ?",
    args: [body.code],
  });
  assert.equal(rs.rows[0].url, body.url);
  // Only the token's SHA-256 is stored.
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(body.manageToken));
  const hex = Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
  assert.equal(rs.rows[0].manage_hash, hex);
  const all = await fx.db.execute("SELECT * FROM links");
  assert.ok(!JSON.stringify(all.rows).includes(body.manageToken), "the token is not stored");
});

Deno.test("the same URL again is a new link with its own token (a link has one owner)", async () => {
  await using fx = await linkApp();
  const first = await (await fx.shorten({ url: "HTTPS://Example.COM" })).json();
  assert.equal(first.url, "https://example.com/", "stored in normalised form");
  const again = await fx.shorten({ url: "https://example.com/" });
  assert.equal(again.status, 201);
  const second = await again.json();
  assert.notEqual(second.code, first.code);
  assert.notEqual(second.manageToken, first.manageToken);
  assert.equal(await linkCount(fx.db), 2);
});

Deno.test("a custom code is 201; a taken one is 400 INVALID_INPUT Code already in use", async () => {
  await using fx = await linkApp();
  const res = await fx.shorten({ url: "https://example.com/", code: "launch-2030_A" });
  assert.equal(res.status, 201);
  const body = await res.json();
  assert.equal(body.code, "launch-2030_A");
  assert.equal(body.shortUrl, `${ORIGIN}/launch-2030_A`);
  await assertError(
    await fx.shorten({ url: "https://example.com/", code: "launch-2030_A" }),
    400,
    "INVALID_INPUT",
    "Code already in use",
  );
  await assertError(
    await fx.shorten({ url: "https://other.example/", code: "launch-2030_A" }),
    400,
    "INVALID_INPUT",
    "Code already in use",
  );
  // Codes are case-sensitive: a different case is a different code.
  assert.equal(
    (await fx.shorten({ url: "https://x.example/", code: "LAUNCH-2030_a" })).status,
    201,
  );
  assert.equal(await linkCount(fx.db), 2);
});

Deno.test("a malformed or reserved custom code is 400 INVALID_INPUT", async () => {
  await using fx = await linkApp();
  const shape = "code must be 3 to 64 characters of A-Z, a-z, 0-9, _ or -";
  for (const code of ["ab", "x".repeat(65), "has space", "ünï", "a/b", "a.b", "", 1234, true]) {
    await assertError(
      await fx.shorten({ url: "https://example.com/", code }),
      400,
      "INVALID_INPUT",
      shape,
    );
  }
  for (const code of ["shorten", "health", "docs", "Docs", "OPENAPI", "info"]) {
    await assertError(
      await fx.shorten({ url: "https://example.com/", code }),
      400,
      "INVALID_INPUT",
      "code is reserved",
    );
  }
  assert.equal(
    (await fx.shorten({ url: "https://example.com/", code: "x".repeat(64) })).status,
    201,
  );
  assert.equal((await fx.shorten({ url: "https://example.com/", code: "abc" })).status, 201);
  assert.equal(await linkCount(fx.db), 2);
});

Deno.test("a body that is not JSON is 400 INVALID_INPUT Invalid JSON, whatever the content type", async () => {
  await using fx = await linkApp();
  for (const body of ["not json", "", "{url: 'https://example.com/'}", '{"url":']) {
    await assertError(await fx.shorten(body), 400, "INVALID_INPUT", "Invalid JSON");
  }
  // curl -d sends form encoding by default.
  await assertError(
    await fx.shorten("url=https://example.com/", {
      headers: { "content-type": "application/x-www-form-urlencoded" },
    }),
    400,
    "INVALID_INPUT",
    "Invalid JSON",
  );
  // JSON with a form content type is still read as JSON.
  const res = await fx.shorten(JSON.stringify({ url: "https://example.com/" }), {
    headers: { "content-type": "application/x-www-form-urlencoded" },
  });
  assert.equal(res.status, 201);
});

Deno.test("JSON that is not an object is 400 INVALID_INPUT", async () => {
  await using fx = await linkApp();
  for (const body of ["[]", '"https://example.com/"', "null", "42"]) {
    await assertError(await fx.shorten(body), 400, "INVALID_INPUT", "Body must be a JSON object");
  }
});

Deno.test("a missing or invalid url is 400 INVALID_URL Missing or invalid url in body", async () => {
  await using fx = await linkApp();
  const bodies = [
    {},
    { url: "" },
    { url: "   " },
    { url: null },
    { url: 42 },
    { url: "not a url" },
    { url: "/relative/path" },
    { url: "ftp://example.com/file" },
    { url: "javascript:alert(1)" },
    { url: "data:text/html,hi" },
    { url: "http://" },
    { code: "fine-code" },
  ];
  for (const body of bodies) {
    await assertError(
      await fx.shorten(body),
      400,
      "INVALID_URL",
      "Missing or invalid url in body",
    );
  }
  assert.equal(await linkCount(fx.db), 0);
});

Deno.test("a body over 8 KiB is 413 INVALID_INPUT; just under is accepted", async () => {
  await using fx = await linkApp();
  const big = JSON.stringify({ url: `https://example.com/${"a".repeat(9000)}` });
  const res = await fx.shorten(big);
  assert.equal(res.status, 413);
  const body = await res.json();
  assert.equal(body.code, "INVALID_INPUT");
  assert.match(body.error, /8192 bytes/);
  const fits = JSON.stringify({ url: `https://example.com/${"a".repeat(8000)}` });
  assert.ok(fits.length <= 8192);
  assert.equal((await fx.shorten(fits)).status, 201);
});

Deno.test("a URL on the shortener's own host is refused (no redirect loops)", async () => {
  await using fx = await linkApp();
  const loop = "url must not point at this link shortener";
  for (const url of [`${ORIGIN}/abc1234`, "https://SHO.RT/x", "http://sho.rt./x"]) {
    await assertError(await fx.shorten({ url }), 400, "INVALID_URL", loop);
  }
  // Another port of the same name is another server.
  assert.equal((await fx.shorten({ url: "http://sho.rt:8080/x" })).status, 201);
  // Loopback names are one host: 127.0.0.1:8007 is localhost:8007.
  const local = await fx.app.request("http://localhost:8007/shorten", {
    method: "POST",
    body: JSON.stringify({ url: "http://127.0.0.1:8007/abc" }),
  });
  await assertError(local, 400, "INVALID_URL", loop);
});

Deno.test("PUBLIC_BASE_URL builds shortUrl, and URLs on it are refused too", async () => {
  await using fx = await linkApp({ publicBaseUrl: "https://go.example/s" });
  const res = await fx.shorten({ url: "https://example.com/", code: "hello" });
  assert.equal(res.status, 201);
  assert.equal((await res.json()).shortUrl, "https://go.example/s/hello");
  const loop = "url must not point at this link shortener";
  await assertError(await fx.shorten({ url: "https://go.example/s/x" }), 400, "INVALID_URL", loop);
  await assertError(await fx.shorten({ url: `${ORIGIN}/x` }), 400, "INVALID_URL", loop);
});

Deno.test("expiresAt: a future ISO instant is stored normalised to UTC", async () => {
  await using fx = await linkApp();
  const cases: [string, string][] = [
    ["2999-01-01T00:00:00Z", "2999-01-01T00:00:00.000Z"],
    ["2999-06-30T12:30:00+02:00", "2999-06-30T10:30:00.000Z"],
    ["2999-06-30T12:30+0200", "2999-06-30T10:30:00.000Z"],
    ["2999-03-04", "2999-03-04T00:00:00.000Z"],
    ["2999-03-04T05:06:07.891z", "2999-03-04T05:06:07.891Z"],
  ];
  for (const [i, [input, stored]] of cases.entries()) {
    const res = await fx.shorten({ url: `https://example.com/${i}`, expiresAt: input });
    assert.equal(res.status, 201, input);
    assert.equal((await res.json()).expiresAt, stored, input);
  }
  const none = await fx.shorten({ url: "https://example.com/none", expiresAt: null });
  assert.equal((await none.json()).expiresAt, null);
});

Deno.test("expiresAt: past, malformed or zone-less values are 400 INVALID_INPUT", async () => {
  await using fx = await linkApp();
  const past = "expiresAt must be in the future";
  const shape = "expiresAt must be an ISO 8601 date or date-time with a time zone";
  const cases: [unknown, string][] = [
    ["2000-01-01T00:00:00Z", past],
    [new Date(Date.now() - 1000).toISOString(), past],
    ["1970-01-01", past],
    ["tomorrow", shape],
    ["2999-02-31", shape],
    ["2999-13-01T00:00:00Z", shape],
    ["2999-01-01T00:00:00", shape],
    ["01/02/2999", shape],
    [4102444800000, shape],
    [{}, shape],
  ];
  for (const [expiresAt, message] of cases) {
    await assertError(
      await fx.shorten({ url: "https://example.com/", expiresAt }),
      400,
      "INVALID_INPUT",
      message,
    );
  }
  assert.equal(await linkCount(fx.db), 0);
});

Deno.test("expiresAt written in another zone is stored as the same UTC instant", async () => {
  await using fx = await linkApp();
  const body = await (await fx.shorten({
    url: "https://example.com/",
    expiresAt: "2999-01-01T01:00:00+01:00",
  })).json();
  assert.equal(body.expiresAt, "2999-01-01T00:00:00.000Z");
});

Deno.test("a libSQL failure is 500 DATABASE_ERROR with a generic message", async () => {
  await using fx = await linkApp();
  fx.db.close();
  const res = await fx.shorten({ url: "https://example.com/" });
  await assertError(res, 500, "DATABASE_ERROR", "Database error");
  const failure = fx.logs.map((l) => JSON.parse(l)).find((l) => l.event === "db_error");
  assert.ok(failure, "the cause is logged");
  assert.match(failure.message, /closed/i);
});

Deno.test("OpenAPI lists the routes with their request schemas and responses", async () => {
  await using fx = await linkApp();
  const doc = await (await fx.get("/openapi.json")).json();
  const post = doc.paths["/shorten"].post;
  const schema = post.requestBody.content["application/json"].schema;
  const props = schema.$ref
    ? doc.components.schemas[schema.$ref.split("/").pop()].properties
    : schema.properties;
  assert.deepEqual(Object.keys(props).sort(), [
    "code",
    "expiresAt",
    "maxClicks",
    "password",
    "url",
    "utm",
  ]);
  assert.deepEqual(Object.keys(post.responses).sort(), ["201", "400", "413", "429", "500"]);
  const redirect = doc.paths["/{code}"].get;
  assert.deepEqual(Object.keys(redirect.responses).sort(), [
    "200",
    "302",
    "401",
    "404",
    "429",
    "500",
  ]);
  assert.equal(redirect.parameters[0].name, "code");
  assert.equal(redirect.parameters[0].in, "path");
  assert.deepEqual(Object.keys(doc.paths["/{code}/info"].get.responses).sort(), [
    "200",
    "401",
    "404",
    "500",
  ]);
  assert.deepEqual(Object.keys(doc.paths["/{code}/stats"].get.responses).sort(), [
    "200",
    "401",
    "404",
    "500",
  ]);
  assert.ok(doc.paths["/{code}"].post, "the password form's route");
  const qr = doc.paths["/{code}/qr"].get;
  assert.deepEqual(qr.parameters.map((p: { name: string }) => p.name).sort(), [
    "code",
    "ecc",
    "format",
    "margin",
    "size",
  ]);
  const patch = doc.paths["/{code}"].patch;
  assert.deepEqual(Object.keys(patch.responses).sort(), ["200", "400", "401", "404", "413", "500"]);
  const patchSchema = patch.requestBody.content["application/json"].schema;
  assert.ok(patchSchema.$ref?.endsWith("PatchLinkRequest"));
  assert.deepEqual(Object.keys(doc.paths["/{code}"].delete.responses).sort(), [
    "204",
    "401",
    "404",
    "500",
  ]);
});

Deno.test("POST /shorten with an endless chunked body: 413 at 8 KiB, the rest never read", async () => {
  await using fx = await linkApp();
  let pulled = 0;
  let cancelled = false;
  const endless = new ReadableStream<Uint8Array>({
    pull(controller) {
      pulled++;
      controller.enqueue(new TextEncoder().encode(" ".repeat(1024)));
    },
    cancel() {
      cancelled = true;
    },
  });
  const res = await fx.app.request("http://sho.rt/shorten", {
    method: "POST",
    body: endless,
    // @ts-ignore: a streamed request body needs duplex "half" (not yet in the DOM types)
    duplex: "half",
  });
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), {
    error: "Request body exceeds the limit of 8192 bytes",
    code: "INVALID_INPUT",
  });
  assert.ok(pulled <= 10, `read ${pulled} KiB`);
  assert.ok(cancelled);
  assert.equal(await linkCount(fx.db), 0);
});
