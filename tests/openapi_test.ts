/**
 * `/openapi.json` of every experiment, checked against the app itself: it is OpenAPI 3.1, it
 * documents every route the app's own route table serves (and nothing it does not serve), each
 * operation declares its success response and its error responses with the `{error, code}`
 * body, and what an operation answers when called without its inputs is a status it
 * documents. Then the contract's validation rows, compared byte for byte.
 */
import assert from "node:assert/strict";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { createApp as dependencyAnalyzer } from "../functions/dependency-analyzer/app.ts";
import { createApp as metadataExtractor } from "../functions/metadata-extractor/app.ts";
import { createApp as devtoolsInspector } from "../functions/devtools-inspector/app.ts";
import { createApp as aiSummary } from "../functions/ai-summary/app.ts";
import { createApp as repoExplainer } from "../functions/repo-explainer/app.ts";
import { createApp as screenshot } from "../functions/screenshot/app.ts";
import { createApp as objectStorage } from "../functions/object-storage/app.ts";
import { extractiveAi } from "../shared/bindings/ai/mod.ts";
import { APP_WIDE_ERRORS } from "../shared/contract/document.ts";
import { type LightApp, routeSpecs } from "../shared/contract/light_app.ts";
import type { Param } from "../shared/contract/params.ts";
import type { BrowserBinding } from "../shared/bindings/browser/mod.ts";
import { DOCS_ASSETS } from "../shared/contract/docs.ts";
import { ERROR_STATUS } from "../shared/contract/errors.ts";
import { linkApp } from "./link-shortener/app_fixture.ts";
import { filesystemBackend } from "./object-storage/backends.ts";
import { openPolicy } from "./support/policy.ts";
import { SLUGS } from "../scripts/experiments.ts";

const quiet = { log: () => {} };

/** An experiment's app over test bindings, and what to release afterwards. */
interface Fixture {
  app: LightApp;
  close(): PromiseLike<void>;
}

const noop = () => Promise.resolve();

/** A browser binding that fails the test if anything asks it for a browser. */
const untouchableBrowser: BrowserBinding = {
  mode: "launch",
  get: () => Promise.reject(new Error("the browser must not be used")),
  close: noop,
};

/**
 * Every experiment, built as its own tests build it. Nothing here is ever contacted: each
 * request of this file fails validation or never leaves the app.
 */
const EXPERIMENTS: Record<string, () => Promise<Fixture>> = {
  "dependency-analyzer": () =>
    Promise.resolve({ app: dependencyAnalyzer({ fetchPolicy: openPolicy() }, quiet), close: noop }),
  "metadata-extractor": () =>
    Promise.resolve({ app: metadataExtractor({ fetchPolicy: openPolicy() }, quiet), close: noop }),
  "devtools-inspector": () =>
    Promise.resolve({ app: devtoolsInspector({ fetchPolicy: openPolicy() }), close: noop }),
  "ai-summary": () =>
    Promise.resolve({
      app: aiSummary({ fetchPolicy: openPolicy(), AI: extractiveAi() }, quiet),
      close: noop,
    }),
  "repo-explainer": () =>
    Promise.resolve({
      app: repoExplainer({
        fetchPolicy: openPolicy(),
        AI: extractiveAi(),
        github: { apiUrl: "http://127.0.0.1:9" },
      }, quiet),
      close: noop,
    }),
  "screenshot": () =>
    Promise.resolve({
      app: screenshot({ BROWSER: untouchableBrowser, fetchPolicy: openPolicy() }, quiet),
      close: noop,
    }),
  "link-shortener": async () => {
    const fx = await linkApp();
    return { app: fx.app, close: () => fx[Symbol.asyncDispose]() };
  },
  "object-storage": async () => {
    // The filesystem default, under which `GET /public/{key}` serves the bytes itself.
    const backend = await filesystemBackend();
    return { app: objectStorage(await backend.fresh(), quiet), close: () => backend.close() };
  },
};

/** Runs `fn` on a fresh app of `slug`, released afterwards. */
async function withApp(slug: string, fn: (app: LightApp) => Promise<void>): Promise<void> {
  const fx = await EXPERIMENTS[slug]();
  try {
    await fn(fx.app);
  } finally {
    await fx.close();
  }
}

// --- the document ---------------------------------------------------------------------------

// deno-lint-ignore no-explicit-any
type Json = any;

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One documented operation: `GET /{code}` and its OpenAPI object. */
interface Operation {
  method: string;
  path: string;
  op: Json;
}

async function openapiDoc(app: LightApp): Promise<Json> {
  const res = await app.request("/openapi.json");
  assert.equal(res.status, 200);
  assert.match(res.headers.get("content-type") ?? "", /^application\/json/);
  return JSON.parse(await res.text());
}

function operations(doc: Json): Operation[] {
  const out: Operation[] = [];
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const method of METHODS) {
      if (item[method]) out.push({ method: method.toUpperCase(), path, op: item[method] });
    }
  }
  return out;
}

/**
 * What is left out of the comparison with the route table, explicitly:
 * - entries of method `ALL`: Hono's route table lists middleware (`app.use`) that way;
 * - the documentation endpoints themselves (the document does not describe itself), and the
 *   MCP endpoint (shared/contract/mcp.ts).
 */
const DOC_ENDPOINTS = [
  "GET /openapi.json",
  "GET /docs",
  ...DOCS_ASSETS.map((name) => `GET /docs/${name}`),
  "GET /docs/favicon.svg",
  // The MCP endpoint speaks JSON-RPC, not REST: its tools are the documented routes.
  "POST /mcp",
  "GET /mcp",
  "DELETE /mcp",
];

/** Hono's `/:code`, `/:key{.+}` and `/:id?` as OpenAPI's `/{code}`, `/{key}`, `/{id}`. */
function openapiPath(honoPath: string): string {
  return honoPath.replace(/:(\w+)(?:\{(?:[^{}]|\{[^{}]*\})*\})?\??/g, "{$1}");
}

/** The routes the app serves, from its own route table, as `METHOD /openapi/{path}`. */
function servedRoutes(app: LightApp): Set<string> {
  return new Set(
    app.routes.filter((r) => r.method !== "ALL")
      .map((r) => `${r.method} ${openapiPath(r.path)}`)
      .filter((route) => !DOC_ENDPOINTS.includes(route)),
  );
}

/** Hono answers HEAD with the GET handler: a documented HEAD is served when GET is. */
function isServed(route: string, served: Set<string>): boolean {
  return served.has(route) || (route.startsWith("HEAD ") && served.has(`GET ${route.slice(5)}`));
}

const ERROR_REF = "#/components/schemas/ErrorBody";

function statuses(op: Json): number[] {
  return Object.keys(op.responses).map(Number);
}

function hasRequiredInput(op: Json): boolean {
  const params: Json[] = op.parameters ?? [];
  return params.some((p) => p.required && p.in !== "path") || op.requestBody?.required === true;
}

/** The document's ErrorBody: `error` required, `code` one of the contract's codes. */
function assertErrorBodySchema(doc: Json): void {
  const schema = doc.components?.schemas?.ErrorBody;
  assert.ok(schema, "components.schemas.ErrorBody");
  assert.equal(schema.type, "object");
  assert.equal(schema.properties.error.type, "string");
  assert.deepEqual([...schema.properties.code.enum].sort(), Object.keys(ERROR_STATUS).sort());
  assert.deepEqual(schema.required, ["error"]);
}

/** A response body is the error body: `error`, then `code` (one from the table) or nothing. */
function assertErrorBody(text: string, label: string): void {
  const body = JSON.parse(text);
  const keys = Object.keys(body);
  assert.ok(
    keys.length === 2 ? keys[0] === "error" && keys[1] === "code" : keys[0] === "error",
    `${label}: ${text}`,
  );
  assert.equal(typeof body.error, "string", label);
  if (body.code !== undefined) assert.ok(body.code in ERROR_STATUS, `${label}: ${body.code}`);
}

/** Checks one operation's responses; throws on the first gap. */
function assertResponses(method: string, label: string, op: Json): void {
  const codes = statuses(op);
  const success = codes.filter((s) => s >= 200 && s < 400);
  assert.ok(success.length > 0, `${label}: no success response`);
  for (const status of success) {
    const response = op.responses[status];
    // A body schema for the statuses that carry one (a HEAD answer never has a body).
    if (method !== "HEAD" && (status === 200 || status === 201 || status === 206)) {
      const media = Object.values<Json>(response.content ?? {});
      assert.ok(media.length > 0 && media.every((m) => m.schema), `${label} ${status}: schema`);
    }
    if (status >= 301 && status <= 308 && status !== 304) {
      assert.ok(response.headers?.Location, `${label} ${status}: Location header`);
    }
  }
  for (const status of codes.filter((s) => s >= 400)) {
    const response = op.responses[status];
    assert.deepEqual(
      Object.keys(response.content ?? {}),
      ["application/json"],
      `${label} ${status}: JSON`,
    );
    assert.equal(response.content["application/json"].schema.$ref, ERROR_REF, `${label} ${status}`);
    assert.ok(response.description, `${label} ${status}: description names its codes`);
  }
  if (hasRequiredInput(op)) assert.ok(codes.includes(400), `${label}: 400 for invalid input`);
}

/** `op`'s path with each path parameter filled with `x` (no such link, object, ...). */
function concretePath(path: string): string {
  return path.replace(/\{\w+\}/g, "x");
}

/**
 * The routes each experiment must have (docs/contract.md and its README), with the error statuses the contract (or its
 * pattern: fetch and parse, summarise, ...) gives them. Every app must document these.
 */
const DESIGN_ROUTES: Record<string, Record<string, number[]>> = {
  "dependency-analyzer": { "GET /analyze": [400, 502] },
  "metadata-extractor": { "GET /metadata": [400, 502] },
  "devtools-inspector": { "GET /inspect": [400, 502] },
  "ai-summary": { "GET /summary": [400, 502] },
  "repo-explainer": { "GET /explain": [400, 502] },
  "screenshot": { "GET /screenshot": [400, 502] },
  "link-shortener": {
    "POST /shorten": [400],
    "GET /{code}": [404],
    "GET /{code}/info": [404],
  },
  "object-storage": {
    "PUT /object": [400],
    "GET /object": [400, 404],
    "HEAD /object": [400, 404],
    "DELETE /object": [400, 404],
    "GET /objects": [400],
    "GET /public/{key}": [404],
  },
};

Deno.test("the OpenAPI fixtures cover exactly the listed experiments", () => {
  assert.deepEqual(Object.keys(EXPERIMENTS).sort(), [...SLUGS].sort());
});

for (const slug of Object.keys(EXPERIMENTS)) {
  Deno.test(`${slug}: /openapi.json is OpenAPI 3.1 and documents every route the app serves`, () =>
    withApp(slug, async (app) => {
      const doc = await openapiDoc(app);
      assert.match(doc.openapi, /^3\.1\./);
      assert.equal(doc.info.title, slug);
      assert.equal(typeof doc.info.version, "string");
      // The app-wide errors (uncaught failure, unknown path) are stated once, for all routes.
      assert.ok(doc.info.description.endsWith(APP_WIDE_ERRORS), "app-wide errors described");
      assert.equal(typeof doc.paths, "object");
      assertErrorBodySchema(doc);

      // The excluded documentation endpoints are really served (the exclusion is not stale).
      const table = new Set(app.routes.map((r) => `${r.method} ${r.path}`));
      for (const route of DOC_ENDPOINTS) assert.ok(table.has(route), `${route} is served`);

      const served = servedRoutes(app);
      const documented = operations(doc).map((o) => `${o.method} ${o.path}`);
      const undocumented = [...served].filter((route) => !documented.includes(route));
      assert.deepEqual(undocumented, [], "served routes missing from /openapi.json");
      const unserved = documented.filter((route) => !isServed(route, served));
      assert.deepEqual(unserved, [], "documented routes the app does not serve");

      assert.ok(documented.includes("GET /"), "root information document");
      for (const [route, errors] of Object.entries(DESIGN_ROUTES[slug])) {
        assert.ok(documented.includes(route), `${route} (a required route) is documented`);
        const op = operations(doc).find((o) => `${o.method} ${o.path}` === route)!.op;
        for (const status of errors) assert.ok(op.responses[status], `${route}: ${status}`);
      }
    }));

  Deno.test(`${slug}: every operation declares its success and its errors with the error body`, () =>
    withApp(slug, async (app) => {
      const doc = await openapiDoc(app);
      for (const { method, path, op } of operations(doc)) {
        const label = `${method} ${path}`;
        assert.ok(op.summary, `${label}: summary`);
        assertResponses(method, label, op);
      }
    }));

  Deno.test(`${slug}: each operation called without its inputs answers a status it documents`, () =>
    withApp(slug, async (app) => {
      const doc = await openapiDoc(app);
      for (const { method, path, op } of operations(doc)) {
        const label = `${method} ${path}`;
        const res = await app.request(concretePath(path), { method });
        const text = await res.text();
        assert.ok(statuses(op).includes(res.status), `${label}: ${res.status} undocumented`);
        if (hasRequiredInput(op)) assert.ok(res.status >= 400, `${label}: ${res.status}`);
        if (res.status >= 400 && method !== "HEAD") assertErrorBody(text, label);
      }
    }));
}

/**
 * A light app's routes read their parameters with the contract's validators, not with the
 * document's schemas: the two must say the same. For each route, the documented parameters
 * are its declared ones (name, place, required, description, example, enumeration, type and
 * bounds), and each validator accepts what the document offers (the example, each enumerated
 * value, a number's bounds, a flag's two values) and refuses what the document rules out
 * (absence of a required one, a value outside the enumeration or the bounds, a list longer
 * than its maxItems).
 */
/**
 * A parameter documented as an integer, number or boolean, or with a longest length: its
 * validator takes what the schema allows at its edges and refuses what lies just past them.
 */
function assertTypedValidator(label: string, schema: Json, param: Param<unknown>): void {
  if (schema.type === "boolean") {
    assert.equal(param.parse("true"), true, label);
    assert.equal(param.parse("false"), false, label);
    assert.throws(() => param.parse("yes"), label);
  }
  if (schema.type === "integer" || schema.type === "number") {
    assert.equal(param.parse(String(schema.minimum)), schema.minimum, label);
    assert.equal(param.parse(String(schema.maximum)), schema.maximum, label);
    assert.throws(() => param.parse(String(schema.minimum - 1)), label);
    assert.throws(() => param.parse(String(schema.maximum + 1)), label);
  }
  if (schema.type === "integer") assert.throws(() => param.parse(`${schema.minimum}.5`), label);
  if (schema.maxLength !== undefined) {
    assert.throws(() => param.parse("a".repeat(schema.maxLength + 1)), label);
  }
}

for (const slug of Object.keys(EXPERIMENTS)) {
  Deno.test(`${slug}: a light app's documented parameters are its validators'`, () =>
    withApp(slug, async (app) => {
      const specs = routeSpecs(app);
      if (specs.length === 0) return; // an OpenAPIHono app: its zod schemas do both
      const doc = await openapiDoc(app);
      for (const spec of specs) {
        const label = `${spec.method.toUpperCase()} ${spec.path}`;
        const op = doc.paths[spec.path]?.[spec.method];
        assert.ok(op, `${label} is documented`);
        assert.equal(op.operationId, spec.operationId, label);
        const declared = Object.entries(spec.params ?? {});
        // A header not declared as a parameter (repo-explainer's token) is read by its
        // handler, not by a validator; a declared one (object-storage's Content-Type) is checked.
        const names = new Set(declared.map(([name]) => name));
        const documented: Json[] = (op.parameters ?? []).filter((p: Json) =>
          p.in !== "header" || names.has(p.name)
        );
        assert.deepEqual(
          documented.map((p) => [p.name, p.in, p.required, p.description, p.schema.example]),
          declared.map(([name, p]) => [name, p.in, p.required, p.description, p.example]),
          label,
        );
        for (const [i, [name, param]] of declared.entries()) {
          const schema = documented[i].schema;
          // A non-string one (a number, a flag, a list) is documented as its validator says.
          const { type = "string", ...keywords } = param.schema ?? {};
          assert.equal(schema.type, type, `${label} ${name}`);
          for (const [k, v] of Object.entries(keywords)) {
            assert.deepEqual(schema[k], v, `${label} ${name} ${k}`);
          }
          assert.equal(schema.default, param.default, `${label} ${name} default`);
          assertTypedValidator(`${label} ${name}`, schema, param);
          if (type === "array") {
            assert.deepEqual(param.parse(["a"]), ["a"], `${label} ${name}`);
            const tooMany = Array(schema.maxItems + 1).fill("a");
            assert.throws(() => param.parse(tooMany), `${label} ${name}`);
          }
          assert.deepEqual(schema.enum, param.values, `${label} ${name}`);
          if (param.example !== undefined) param.parse(param.example);
          for (const value of schema.enum ?? []) assert.equal(param.parse(value), value);
          if (schema.enum) assert.throws(() => param.parse(`not-${schema.enum[0]}`));
          if (param.required) assert.throws(() => param.parse(undefined), `${label} ${name}`);
          else param.parse(undefined);
        }
      }
    }));
}

// --- what tools say of the document --------------------------------------------------------

/** Redocly's `recommended` ruleset, as its CLI applies it (`redocly lint`). */
const redoclyConfig = createConfig({ extends: ["recommended"] });

/** Redocly's findings on `doc`, as `severity rule pointer: message` lines. */
async function redoclyLint(
  slug: string,
  doc: Json,
): Promise<{ errors: string[]; warnings: string[] }> {
  const problems = await lintFromString({
    source: JSON.stringify(doc),
    absoluteRef: `/${slug}/openapi.json`,
    config: await redoclyConfig,
  });
  const line = (p: (typeof problems)[number]) =>
    `${p.ruleId} ${p.location[0]?.pointer ?? ""}: ${p.message}`;
  return {
    errors: problems.filter((p) => p.severity === "error").map(line),
    warnings: problems.filter((p) => p.severity === "warn").map(line),
  };
}

/**
 * Warnings of the recommended ruleset that stay, each reviewed (ARCHITECTURE.md "OpenAPI and
 * MCP"): `rule pointer` and why.
 */
const REVIEWED_WARNINGS: Record<string, string> = {
  // The root document takes no input: nothing it could refuse with a 4xx.
  "operation-4xx-response #/paths/~1/get/responses": "GET / has no input to refuse",
  // A short link answers with a redirect by design; a 2xx would not be a short link.
  "operation-2xx-response #/paths/~1{code}/get/responses": "GET /{code} is a 302 redirect",
};

/** Verbs an operationId may start with: what the operation does to its resource. */
const OPERATION_VERB =
  /^(get|list|put|head|delete|update|create|analyze|extract|inspect|summarize|explain|capture|shorten|resolve|read|sign)[A-Z]/;

for (const slug of Object.keys(EXPERIMENTS)) {
  Deno.test(`${slug}: Redocly's recommended lint finds no error and no unreviewed warning`, () =>
    withApp(slug, async (app) => {
      const { errors, warnings } = await redoclyLint(slug, await openapiDoc(app));
      assert.deepEqual(errors, [], "errors");
      const unreviewed = warnings.filter((w) => !(w.slice(0, w.indexOf(":")) in REVIEWED_WARNINGS));
      assert.deepEqual(unreviewed, [], "warnings");
    }));

  Deno.test(`${slug}: operations have a verb-first operationId and say what security they need`, () =>
    withApp(slug, async (app) => {
      const doc = await openapiDoc(app);
      const ids = new Set<string>();
      for (const { method, path, op } of operations(doc)) {
        const label = `${method} ${path}`;
        assert.match(op.operationId ?? "", OPERATION_VERB, `${label}: operationId`);
        assert.ok(!ids.has(op.operationId), `${label}: ${op.operationId} is unique`);
        ids.add(op.operationId);
        assert.ok(Array.isArray(op.security), `${label}: security`);
        for (const requirement of op.security) {
          for (const scheme of Object.keys(requirement)) {
            const declared = doc.components?.securitySchemes?.[scheme];
            assert.deepEqual([declared?.type, declared?.scheme], ["http", "bearer"], scheme);
          }
        }
      }
    }));
}

for (const slug of Object.keys(EXPERIMENTS)) {
  Deno.test(`${slug}: every operation shows an example request and an example answer`, () =>
    withApp(slug, async (app) => {
      const doc = await openapiDoc(app);
      for (const { method, path, op } of operations(doc)) {
        const label = `${method} ${path}`;
        // The example request: each required parameter's example (optional ones may go without).
        for (const param of op.parameters ?? []) {
          const example = param.example ?? param.schema?.example;
          if (param.required) {
            assert.ok(example !== undefined, `${label}: example of ${param.name}`);
          }
        }
        for (const [type, media] of Object.entries<Json>(op.requestBody?.content ?? {})) {
          if (type === "application/json") assert.ok("example" in media, `${label}: request`);
        }
        for (const [status, response] of Object.entries<Json>(op.responses)) {
          const json = response.content?.["application/json"];
          if (status.startsWith("2") && json) assert.ok("example" in json, `${label}: ${status}`);
        }
      }
    }));
}

Deno.test("link-shortener: the routes that need the manage token declare the bearer scheme", () =>
  withApp("link-shortener", async (app) => {
    const doc = await openapiDoc(app);
    const secured = operations(doc).filter(({ op }) => op.security.length > 0)
      .map(({ method, path }) => `${method} ${path}`);
    assert.deepEqual(secured.sort(), ["DELETE /{code}", "PATCH /{code}"]);
    // And they do need it: without the token, 401 (after 404 for an unknown code).
    const created = await app.request("/shorten", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "https://example.com/" }),
    });
    const { code } = await created.json();
    for (const method of ["PATCH", "DELETE"]) {
      const res = await app.request(`/${code}`, { method, body: "{}" });
      assert.equal(res.status, 401, method);
      await res.body?.cancel();
    }
  }));

// --- validation errors, byte for byte ---------------------------------------------------------

const INVALID_URL = '{"error":"Missing or invalid url","code":"INVALID_URL"}';
const INVALID_URL_IN_BODY = '{"error":"Missing or invalid url in body","code":"INVALID_URL"}';
const INVALID_JSON = '{"error":"Invalid JSON","code":"INVALID_INPUT"}';
const MISSING_KEY = '{"error":"Missing key"}';

/** The URL input rule's invalid cases, as query strings. */
const BAD_URL_QUERIES = ["", "?url=", "?url=not%20a%20url", "?url=ftp%3A%2F%2Fexample.com%2F"];

interface Row {
  slug: string;
  method: string;
  path: string;
  body?: string;
  headers?: Record<string, string>;
  expected: string;
}

const ROWS: Row[] = [
  ...["/analyze", "/metadata", "/summary", "/read", "/explain", "/screenshot"].flatMap((route) =>
    BAD_URL_QUERIES.map((query): Row => ({
      slug: {
        "/analyze": "dependency-analyzer",
        "/metadata": "metadata-extractor",
        "/summary": "ai-summary",
        "/read": "ai-summary",
        "/explain": "repo-explainer",
        "/screenshot": "screenshot",
      }[route]!,
      method: "GET",
      path: `${route}${query}`,
      expected: INVALID_URL,
    }))
  ),
  ...[
    "/object",
    "/object?key=",
    "/object?public=true",
    "/object?public=false",
  ].map((path): Row => ({
    slug: "object-storage",
    method: "PUT",
    path,
    body: "hello",
    headers: { "content-type": "text/plain" },
    expected: MISSING_KEY,
  })),
  ...["not json", "{", ""].map((body): Row => ({
    slug: "link-shortener",
    method: "POST",
    path: "/shorten",
    body,
    headers: { "content-type": "application/json" },
    expected: INVALID_JSON,
  })),
  ...["{}", '{"url":""}', '{"url":"nope"}', '{"url":"ftp://example.com/"}', '{"url":7}'].map(
    (body): Row => ({
      slug: "link-shortener",
      method: "POST",
      path: "/shorten",
      body,
      headers: { "content-type": "application/json" },
      expected: INVALID_URL_IN_BODY,
    }),
  ),
];

Deno.test("validation errors match the contract byte for byte", async () => {
  const bySlug = Map.groupBy(ROWS, (row) => row.slug);
  for (const [slug, rows] of bySlug) {
    await withApp(slug, async (app) => {
      for (const row of rows) {
        const label = `${slug}: ${row.method} ${row.path} ${row.body ?? ""}`;
        const res = await app.request(row.path, {
          method: row.method,
          body: row.body,
          headers: row.headers,
        });
        assert.equal(res.status, 400, label);
        assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8", label);
        assert.equal(await res.text(), row.expected, label);
      }
    });
  }
});
