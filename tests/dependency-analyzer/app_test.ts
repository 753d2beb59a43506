/**
 * `GET /analyze` over HTTP semantics: each way a fetch can fail (invalid URL, refused,
 * timeout, upstream 404, oversize, binary), redirects, and the route's OpenAPI entry.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/dependency-analyzer/app.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { type FixtureServer, startFixtureServer } from "../support/fixture_server.ts";
import { fetchInputContractTests } from "../support/fetch_app.ts";
import { openPolicy } from "../support/policy.ts";
import { parseBoundsTests, repeatedElementsTests } from "../support/parse_bounds.ts";

/** A 1×1 PNG's first bytes: binary with NULs. */
const PNG = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 0, 0, 13, 73, 72, 68, 82, 0, 0]);

const ROUTES = {
  "/logo.png": () => new Response(PNG, { headers: { "content-type": "image/png" } }),
  "/sniffed": () => new Response(PNG, { headers: { "content-type": "text/html" } }),
  "/api/data": () => Response.json({ hello: "world" }),
  "/gone.png": () => new Response(PNG, { status: 410, headers: { "content-type": "image/png" } }),
};

/** Runs `fn` with a fixture server (own binary routes included) that is always closed. */
async function withServer(fn: (server: FixtureServer) => Promise<void>): Promise<void> {
  const server = startFixtureServer(ROUTES);
  try {
    await fn(server);
  } finally {
    await server.close();
  }
}

/** GET /analyze?url=<target> on an app with `policy`; the body parsed. */
async function analyze(target: string | null, policy: FetchPolicy = openPolicy()) {
  const app = createApp({ fetchPolicy: policy }, { log: () => {} });
  const query = target === null ? "" : `?url=${encodeURIComponent(target)}`;
  const res = await app.request(`/analyze${query}`);
  assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
  return { status: res.status, body: await res.json() };
}

fetchInputContractTests(createApp, "/analyze");
parseBoundsTests(createApp, "/analyze");
/** The budget the repeated pages run under (the default of ANALYSIS_BUDGET_MS). */
const BUDGET_MS = 10_000;

// What the analysis gathers and the rules read: meta tags, scripts (external, inline, data
// blocks), stylesheets and hints, iframes; Set-Cookie and other headers repeated too. Each URL
// is resolved (and its origin parsed) on top of the parse: up to ~7 times a benign page of the
// same size on this machine, hence a ratio bound of 15 (a quadratic loop is hundreds).
repeatedElementsTests(createApp, "/analyze", [
  '<meta name="author" content="a">',
  '<meta name="generator" content="WordPress 6.1">',
  '<script src="https://cdn.other.example/a.js"></script>',
  '<script type="application/ld+json"></script>',
  '<link rel="stylesheet" href="/a.css">',
  '<link rel="preload" href="https://cdn.other.example/f.woff2" as="font">',
  '<iframe src="/f"></iframe>',
], { bindings: { analysisBudgetMs: BUDGET_MS }, budgetMs: BUDGET_MS, maxRatio: 15 });

Deno.test("more invalid url inputs are 400 INVALID_URL before any fetch", async () => {
  await withServer(async (server) => {
    const port = server.port;
    const inputs = [
      "ftp://x",
      `ftp://127.0.0.1:${port}/pages/nextjs.html`,
      `//127.0.0.1:${port}/pages/nextjs.html`,
    ];
    for (const input of inputs) {
      const { status, body } = await analyze(input);
      assert.equal(status, 400, String(input));
      assert.deepEqual(body, { error: "Missing or invalid url", code: "INVALID_URL" });
    }
    // A repeated empty parameter is missing too.
    const app = createApp({ fetchPolicy: openPolicy() }, { log: () => {} });
    const res = await app.request("/analyze?url=&url=");
    assert.equal(res.status, 400);
    await res.body?.cancel();
    assert.equal(server.hits(), 0);
  });
});

Deno.test("a stalled upstream times out as 502 FETCH_ERROR", async () => {
  await withServer(async (server) => {
    // Ended by the timeout, before the server's answer at 10 s.
    const { status, body } = await endedByDeadline(
      analyze(server.url("/stall?ms=10000"), openPolicy({ timeoutMs: 300 })),
      300,
      10_000,
    );
    assert.equal(status, 502);
    assert.deepEqual(body, {
      error: `Timed out after 300 ms fetching 127.0.0.1:${server.port}`,
      code: "FETCH_ERROR",
    });
  });
});

Deno.test("an oversize body is 502 FETCH_ERROR", async () => {
  await withServer(async (server) => {
    const { status, body } = await analyze(
      server.url("/huge?bytes=500000"),
      openPolicy({ maxBytes: 20_000 }),
    );
    assert.equal(status, 502);
    assert.deepEqual(body, { error: "Response body exceeds 20000 bytes", code: "FETCH_ERROR" });
  });
});

Deno.test("an upstream 404 is 200 with status 404 and the analysis of its body", async () => {
  await withServer(async (server) => {
    const missing = await analyze(server.url("/pages/no-such-page.html"));
    assert.equal(missing.status, 200);
    assert.equal(missing.body.status, 404);
    assert.equal(missing.body.kind, "page");
    assert.deepEqual(missing.body.scripts, []);
    assert.deepEqual(missing.body.warnings, [
      "Content-Type is text/plain, not text/html; parsed as HTML anyway",
    ]);

    // An HTML error page is analyzed in full.
    const page = await analyze(server.url("/pages/wordpress.html?status=404"));
    assert.equal(page.status, 200);
    assert.equal(page.body.status, 404);
    assert.equal(page.body.summary.scripts, 9);
    assert.equal(
      page.body.libraries.find((l: { name: string }) => l.name === "WordPress").version,
      "6.4.2",
    );
  });
});

Deno.test("a binary body is 502 PARSE_ERROR, by type or by sniffing", async () => {
  await withServer(async (server) => {
    for (const path of ["/logo.png", "/sniffed"]) {
      const { status, body } = await analyze(server.url(path));
      assert.equal(status, 502, path);
      assert.equal(body.code, "PARSE_ERROR");
    }
    const { body } = await analyze(server.url("/logo.png"));
    assert.equal(body.error, "Response is binary (image/png): not an HTML page or a manifest");
    // A fixture served with a binary type is refused the same way.
    const typed = await analyze(server.url("/pages/nextjs.html?type=application/octet-stream"));
    assert.equal(typed.status, 502);
    assert.equal(typed.body.code, "PARSE_ERROR");
  });
});

Deno.test("a binary error page is an honest empty result that keeps the upstream status", async () => {
  await withServer(async (server) => {
    const { status, body } = await analyze(server.url("/gone.png"));
    assert.equal(status, 200);
    assert.equal(body.status, 410);
    assert.equal(body.kind, "page");
    assert.equal(body.summary.scripts, 0);
    assert.deepEqual(body.warnings, [
      "Upstream answered 410; Response is binary (image/png): not an HTML page or a manifest",
    ]);
  });
});

Deno.test("JSON that is not a manifest, and CSS, are 502 PARSE_ERROR", async () => {
  await withServer(async (server) => {
    const json = await analyze(server.url("/api/data"));
    assert.equal(json.status, 502);
    assert.deepEqual(json.body, {
      error: "Response is JSON but not a package.json, deno.json or import map",
      code: "PARSE_ERROR",
    });
    const css = await analyze(server.url("/pages/nextjs.html?type=text/css"));
    assert.equal(css.status, 502);
    assert.equal(css.body.error, "Response is text/css: not an HTML page or a manifest");
  });
});

Deno.test("a package.json served as text/plain (raw file hosts) is still a manifest", async () => {
  await withServer(async (server) => {
    const { status, body } = await analyze(
      server.url("/pages/package.json?type=text/plain;charset=utf-8"),
    );
    assert.equal(status, 200);
    assert.equal(body.kind, "manifest");
    assert.equal(body.format, "package.json");
    assert.equal(body.summary.dependencies, 15);
  });
});

Deno.test("after a redirect, url is as requested and URLs resolve against the final URL", async () => {
  await withServer(async (server) => {
    const requested = server.url(`/redirect?to=${encodeURIComponent("/pages/nextjs.html")}`);
    const { status, body } = await analyze(requested);
    assert.equal(status, 200);
    assert.equal(body.url, requested);
    assert.equal(body.finalUrl, server.url("/pages/nextjs.html"));
    assert.equal(
      body.scripts[0].src,
      server.url("/_next/static/chunks/polyfills-c67a75d1b6f99dc8.js"),
    );
    assert.equal(server.hits("/redirect"), 1);
  });
});

Deno.test("the route is documented in /openapi.json with its error codes", async () => {
  const app = createApp({ fetchPolicy: openPolicy() }, { log: () => {} });
  const doc = await (await app.request("/openapi.json")).json();
  const op = doc.paths["/analyze"].get;
  assert.ok(
    op.parameters.some((p: { name: string; in: string }) => p.name === "url" && p.in === "query"),
  );
  assert.deepEqual(Object.keys(op.responses).sort(), ["200", "400", "502"]);
  assert.match(op.responses["502"].description, /FETCH_ERROR/);
  assert.match(op.responses["502"].description, /PARSE_ERROR/);
  const root = await (await app.request("/")).json();
  assert.deepEqual(root.usage, "GET /analyze?url=<url>");
});
