/**
 * A client generated from the shortener's `/openapi.json` the way its users generate one
 * (openapi-typescript for the types, openapi-fetch for the calls) type-checks and works against
 * the served app: `POST /shorten`, the token-protected `PATCH /{code}` and `GET /{code}/stats`.
 * The types are generated_client_types.ts; bench/generated_client_types_test.ts checks that they are
 * what openapi-typescript makes of the current document (it runs in `deno task test:bench`, so the
 * generator and the TypeScript compiler it needs, 24 MB, stay out of the services' install).
 */
import assert from "node:assert/strict";
import createClient from "openapi-fetch";
import type { paths } from "./generated_client_types.ts";
import { linkApp } from "./app_fixture.ts";

Deno.test("the generated client shortens, updates with the manage token and reads stats", async () => {
  await using fx = await linkApp();
  await using server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req, info) => fx.app.fetch(req, info),
  );
  const client = createClient<paths>({ baseUrl: `http://127.0.0.1:${server.addr.port}` });

  const created = await client.POST("/shorten", { body: { url: "https://example.com/first" } });
  assert.equal(created.response.status, 201);
  const link = created.data!;
  const token: string = link.manageToken;
  assert.equal(link.url, "https://example.com/first");

  const refused = await client.PATCH("/{code}", {
    params: { path: { code: link.code } },
    body: { url: "https://example.com/second" },
  });
  assert.equal(refused.response.status, 401);
  assert.equal(refused.error?.code, "INVALID_INPUT");

  const updated = await client.PATCH("/{code}", {
    params: { path: { code: link.code } },
    body: { url: "https://example.com/second" },
    headers: { authorization: `Bearer ${token}` },
  });
  assert.equal(updated.response.status, 200);
  assert.equal(updated.data?.url, "https://example.com/second");

  const stats = await client.GET("/{code}/stats", { params: { path: { code: link.code } } });
  assert.equal(stats.response.status, 200);
  const total: number = stats.data!.totalClicks;
  assert.equal(total, 0);
  assert.equal(stats.data!.code, link.code);

  const missing = await client.GET("/{code}/stats", { params: { path: { code: "nope404" } } });
  assert.equal(missing.response.status, 404);
  assert.equal(missing.error?.code, "NOT_FOUND");
});
