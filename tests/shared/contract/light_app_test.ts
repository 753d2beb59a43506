import assert from "node:assert/strict";
import { z } from "@hono/zod-openapi";
import {
  addRoute,
  createLightApp,
  openapiDocument,
  type OperationDoc,
  routeSpecs,
} from "../../../shared/contract/light_app.ts";
import { errorResponses, jsonContent } from "../../../shared/contract/openapi.ts";
import { enumParam, MESSAGES, URL_QUERY } from "../../../shared/contract/params.ts";
import { staticGraph } from "../../support/static_graph.ts";

const INFO = { name: "test", description: "A test experiment.", usage: "GET /echo?url=<url>" };

const ECHO_PARAMS = {
  ...URL_QUERY,
  mode: enumParam(["loud", "quiet"], { description: "How", message: "mode must be loud or quiet" }),
};

const ECHO_DOC: OperationDoc = {
  summary: "Echo a URL",
  responses: {
    200: jsonContent(z.object({ url: z.string() }).openapi("Echo"), "The normalised URL"),
    ...errorResponses("INVALID_URL", "INVALID_INPUT"),
  },
};

/** A light app with `/echo`; `operations` gives what the document says of it. */
function testApp(operations: Record<string, OperationDoc> = { echoUrl: ECHO_DOC }) {
  const lines: string[] = [];
  let loads = 0;
  const app = createLightApp(INFO, () => {
    loads++;
    return Promise.resolve({ OPERATIONS: operations });
  }, { log: (line) => lines.push(line) });
  const spec = {
    method: "get",
    path: "/echo",
    operationId: "echoUrl",
    params: ECHO_PARAMS,
  } as const;
  addRoute(app, spec, (c, { url, mode }) => c.json({ url, mode: mode ?? null }, 200));
  return { app, lines, loads: () => loads };
}

Deno.test("light app: a route answers with its params, and a bad one is the contract's error", async () => {
  const { app, lines, loads } = testApp();
  const ok = await app.request("/echo?url=http://A.test&mode=loud");
  assert.equal(ok.status, 200);
  assert.deepEqual(await ok.json(), { url: "http://a.test/", mode: "loud" });
  assert.equal(ok.headers.get("content-type"), "application/json; charset=utf-8");
  assert.equal(ok.headers.get("access-control-allow-origin"), "*");
  assert.ok(ok.headers.get("x-request-id"));

  const bad = await app.request("/echo?url=nope");
  assert.equal(bad.status, 400);
  assert.equal(await bad.text(), JSON.stringify({ error: MESSAGES.url, code: "INVALID_URL" }));
  const badMode = await app.request("/echo?url=http://a.test&mode=x");
  assert.equal(badMode.status, 400);
  assert.deepEqual(await badMode.json(), {
    error: "mode must be loud or quiet",
    code: "INVALID_INPUT",
  });
  assert.equal((await app.request("/nope")).status, 404);
  // One log line per request, the error's code on the failed ones.
  const logged = lines.map((l) => JSON.parse(l));
  assert.deepEqual(logged.map((l) => [l.status, l.code]), [
    [200, null],
    [400, "INVALID_URL"],
    [400, "INVALID_INPUT"],
    [404, "NOT_FOUND"],
  ]);
  // Nothing of the document was loaded to answer them.
  assert.equal(loads(), 0);
});

Deno.test("light app: GET / is the root document", async () => {
  const res = await testApp().app.request("/");
  assert.equal(res.status, 200);
  assert.deepEqual(await res.json(), INFO);
});

Deno.test("light app: the document is built once, from the declarations, on first use", async () => {
  const { app, loads } = testApp();
  const res = await app.request("/openapi.json");
  assert.equal(res.status, 200);
  const doc = await res.json();
  assert.deepEqual(Object.keys(doc.paths), ["/", "/echo"]);
  const op = doc.paths["/echo"].get;
  assert.equal(op.operationId, "echoUrl");
  assert.equal(op.summary, "Echo a URL");
  assert.deepEqual(op.security, []);
  assert.deepEqual(
    op.parameters.map((p: Record<string, unknown>) => [p.name, p.in, p.required]),
    [["url", "query", true], ["mode", "query", false]],
  );
  assert.deepEqual(op.parameters[1].schema.enum, ["loud", "quiet"]);
  assert.deepEqual(Object.keys(op.responses), ["200", "400"]);
  assert.ok(doc.components.schemas.ErrorBody);
  assert.equal(doc.info.title, "test");
  assert.deepEqual(await openapiDocument(app), doc);
  assert.equal(loads(), 1);
  assert.deepEqual(routeSpecs(app).map((r) => r.operationId), ["echoUrl"]);
});

Deno.test("light app: a document that does not match the routes is a 500, retried next time", async () => {
  const operations: Record<string, OperationDoc> = {};
  const { app, loads } = testApp(operations);
  const missing = await app.request("/openapi.json");
  assert.equal(missing.status, 500);
  assert.equal((await missing.json()).code, "INTERNAL_ERROR");
  operations.echoUrl = ECHO_DOC;
  operations.other = ECHO_DOC;
  const extra = await app.request("/openapi.json");
  assert.equal(extra.status, 500);
  assert.match((await extra.json()).error, /document entries for no route: other/);
  delete operations.other;
  assert.equal((await app.request("/openapi.json")).status, 200);
  assert.equal(loads(), 3);
});

for (
  const slug of [
    "metadata-extractor",
    "ai-summary",
    "link-shortener",
    "screenshot",
    "repo-explainer",
    "object-storage",
  ]
) {
  Deno.test(`${slug}: its app answers its routes without loading zod`, async () => {
    const graph = await staticGraph(`functions/${slug}/app.ts`);
    assert.ok(graph.some((s) => s.endsWith(`functions/${slug}/app.ts`)));
    const zod = graph.filter((s) => /zod|shared\/contract\/(document|validation|app)\.ts$/.test(s));
    assert.deepEqual(zod, []);
  });
}

Deno.test("the zod-free check sees zod where an app loads it", async () => {
  const graph = await staticGraph("shared/contract/document.ts");
  assert.ok(graph.some((s) => /zod/.test(s)), graph.join("\n"));
});

for (const slug of ["dependency-analyzer", "devtools-inspector"]) {
  Deno.test(`${slug}: its app answers its routes without loading zod`, async () => {
    const graph = await staticGraph(`functions/${slug}/app.ts`);
    assert.ok(graph.some((s) => s.endsWith(`functions/${slug}/app.ts`)));
    const zod = graph.filter((s) => /zod|shared\/contract\/(document|validation|app)\.ts$/.test(s));
    assert.deepEqual(zod, []);
  });
}
