import assert from "node:assert/strict";
import { z } from "@hono/zod-openapi";
import { addRoute, createLightApp } from "../../../shared/contract/light_app.ts";
import { ApiError } from "../../../shared/contract/errors.ts";
import { MESSAGES, readJsonBody, URL_QUERY } from "../../../shared/contract/params.ts";

const INFO = { name: "test", description: "A test experiment.", usage: "GET /echo?url=<url>" };

/** An app with a route for each shared behaviour under test; log lines are kept. */
function testApp() {
  const lines: string[] = [];
  const app = createLightApp(INFO, () => Promise.resolve({ OPERATIONS: {} }), {
    log: (line) => lines.push(line),
  });
  addRoute(
    app,
    { method: "get", path: "/echo", operationId: "echo", params: URL_QUERY },
    (c, { url }) => c.json({ url }, 200),
  );
  app.get("/boom", () => {
    throw new Error("connect failed for libsql://user:secret@db.internal/x at /srv/app/db.ts:12");
  });
  app.get("/teapot", () => {
    throw new ApiError("INVALID_INPUT", "Too big", 413);
  });
  app.get("/missing-key", () => {
    throw new ApiError(null, MESSAGES.missingKey);
  });
  app.post("/json", async (c) => {
    const body = await readJsonBody(c, z.object({ url: z.string() }), 64);
    return c.json(body);
  });
  return { app, lines };
}

Deno.test("GET / is the root information document, as JSON with charset and CORS", async () => {
  const { app } = testApp();
  const res = await app.request("/");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.deepEqual(await res.json(), INFO);
});

Deno.test("unknown route: 404 NOT_FOUND", async () => {
  const { app } = testApp();
  const res = await app.request("/nope/deeper?x=1");
  assert.equal(res.status, 404);
  assert.deepEqual(await res.json(), { error: "Not found", code: "NOT_FOUND" });
});

Deno.test("a thrown error: 500 INTERNAL_ERROR with its message, no stack, path or secret", async () => {
  const { app } = testApp();
  const res = await app.request("/boom");
  assert.equal(res.status, 500);
  const body = await res.json();
  assert.deepEqual(Object.keys(body).sort(), ["code", "error"]);
  assert.equal(body.code, "INTERNAL_ERROR");
  assert.match(body.error, /^connect failed for <url> at <path>/);
  for (const leak of ["secret", "/srv/app", "at Object", "db.internal", "\n"]) {
    assert.ok(!body.error.includes(leak), `body leaks ${leak}: ${body.error}`);
  }
});

Deno.test("ApiError keeps its code and an HTTP-demanded status; code-less body for Missing key", async () => {
  const { app } = testApp();
  const res = await app.request("/teapot");
  assert.equal(res.status, 413);
  assert.deepEqual(await res.json(), { error: "Too big", code: "INVALID_INPUT" });
  const missing = await app.request("/missing-key");
  assert.equal(missing.status, 400);
  assert.equal(await missing.text(), '{"error":"Missing key"}');
});

Deno.test("schema validation produces the contract's URL errors byte for byte", async () => {
  const { app } = testApp();
  for (
    const query of [
      "",
      "?url=",
      "?url=not%20a%20url",
      "?url=ftp://x",
      "?url=javascript:alert(1)",
      "?url=http://",
    ]
  ) {
    const res = await app.request(`/echo${query}`);
    assert.equal(res.status, 400, query);
    assert.equal(
      await res.text(),
      '{"error":"Missing or invalid url","code":"INVALID_URL"}',
      query,
    );
  }
  const ok = await app.request("/echo?url=HTTPS://Example.com");
  assert.deepEqual(await ok.json(), { url: "https://example.com/" });
});

Deno.test("readJsonBody: not JSON is Invalid JSON, too large is 413, whatever the content type", async () => {
  const { app } = testApp();
  const post = (body: string, type = "application/x-www-form-urlencoded") =>
    app.request("/json", { method: "POST", body, headers: { "content-type": type } });
  const bad = await post("{nope");
  assert.equal(bad.status, 400);
  assert.deepEqual(await bad.json(), { error: "Invalid JSON", code: "INVALID_INPUT" });
  const big = await post(JSON.stringify({ url: "x".repeat(100) }), "application/json");
  assert.equal(big.status, 413);
  assert.equal((await big.json()).code, "INVALID_INPUT");
  const ok = await post('{"url":"a"}');
  assert.deepEqual(await ok.json(), { url: "a" });
});

Deno.test("every response has X-Request-Id and one JSON log line", async () => {
  const { app, lines } = testApp();
  const res = await app.request("/nope", { headers: { "x-request-id": "abc-123" } });
  await res.body?.cancel();
  assert.equal(res.headers.get("x-request-id"), "abc-123");
  const fresh = await app.request("/", { headers: { "x-request-id": "bad id <script>" } });
  await fresh.body?.cancel();
  assert.match(fresh.headers.get("x-request-id")!, /^[0-9a-f-]{36}$/);
  assert.equal(lines.length, 2);
  const log = JSON.parse(lines[0]);
  assert.equal(log.requestId, "abc-123");
  assert.equal(log.method, "GET");
  assert.equal(log.path, "/nope");
  assert.equal(log.status, 404);
  assert.equal(log.code, "NOT_FOUND");
  assert.equal(typeof log.durationMs, "number");
});

Deno.test("CORS preflight is answered", async () => {
  const { app } = testApp();
  const res = await app.request("/json", {
    method: "OPTIONS",
    headers: { origin: "https://a.test", "access-control-request-method": "POST" },
  });
  assert.equal(res.status, 204);
  assert.equal(res.headers.get("access-control-allow-origin"), "*");
  assert.match(res.headers.get("access-control-allow-methods")!, /POST/);
});
