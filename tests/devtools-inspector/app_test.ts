/** The app shell of devtools-inspector: root document, OpenAPI entry, CORS, response shape. */
import assert from "node:assert/strict";
import { createApp, ROOT } from "../../functions/devtools-inspector/app.ts";
import { InspectResultSchema } from "../../functions/devtools-inspector/schema.ts";
import { guardedPolicy } from "../support/policy.ts";
import { startHarness } from "./harness.ts";

Deno.test("GET / is the root information document", async () => {
  const app = createApp({ fetchPolicy: guardedPolicy() }, { log: () => {} });
  const res = await app.request("/");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), ROOT);
  assert.equal(ROOT.usage, "GET /inspect?url=<url>");
});

Deno.test("the route is in the OpenAPI document with its 200, 400 and 502 responses", async () => {
  const app = createApp({ fetchPolicy: guardedPolicy() }, { log: () => {} });
  const doc = await (await app.request("/openapi.json")).json();
  const op = doc.paths["/inspect"].get;
  assert.deepEqual(Object.keys(op.responses).sort(), ["200", "400", "502"]);
  assert.match(op.responses["400"].description, /INVALID_URL/);
  assert.match(op.responses["502"].description, /FETCH_ERROR/);
  assert.deepEqual(op.parameters.map((p: { name: string }) => p.name), ["url"]);
  assert.ok(doc.components.schemas.InspectResult);
  assert.ok(doc.components.schemas.InspectSecurityCheck);
});

Deno.test("a result matches its schema, with CORS and a request id on the response", async () => {
  const h = startHarness();
  try {
    const app = createApp({ fetchPolicy: guardedPolicy({}, [h.fixture.origin]) }, {
      log: () => {},
    });
    const res = await app.request(
      `/inspect?url=${encodeURIComponent(h.fixture.url("/pages/nextjs.html"))}`,
    );
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.ok(res.headers.get("x-request-id"));
    const body = await res.json();
    assert.deepEqual(InspectResultSchema.parse(body), body);
    assert.equal(body.security.checks.length, 17);
  } finally {
    await h.close();
  }
});

Deno.test("the url is reported as requested (normalised), every URL absolute", async () => {
  const h = startHarness();
  try {
    const raw = `HTTP://127.0.0.1:${h.fixture.port}/pages/../pages/wordpress.html`;
    const { body } = await h.inspect(raw);
    assert.equal(body.url, h.fixture.url("/pages/wordpress.html"));
    assert.equal(body.finalUrl, body.url);
    const evidence = (body.security as { checks: { id: string; evidence: string[] }[] }).checks
      .find((c) => c.id === "subresource-integrity")!.evidence;
    assert.ok(evidence.length > 0);
    for (const url of evidence) assert.match(url, /^https:\/\//);
  } finally {
    await h.close();
  }
});
