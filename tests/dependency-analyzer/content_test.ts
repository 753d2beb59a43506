/** How a fetched body is read: page, manifest, or a PARSE_ERROR that says why. */
import assert from "node:assert/strict";
import { classifyBody } from "../../functions/dependency-analyzer/content.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";

/** A fetch result with only what classification reads. */
function response(contentType: string | null, body: string | Uint8Array, path = "/x"): FetchResult {
  const bytes = typeof body === "string" ? new TextEncoder().encode(body) : body;
  const url = `https://example.com${path}`;
  return {
    url,
    finalUrl: url,
    status: 200,
    statusText: "OK",
    headers: new Headers(),
    setCookies: [],
    httpVersion: "1.1",
    redirects: [],
    timings: { dns: null, connect: null, tls: null, ttfb: 0, download: 0, total: 0 },
    remoteAddress: null,
    contentType,
    charset: "utf-8",
    encodedBytes: bytes.length,
    body: bytes,
    text: typeof body === "string" ? body : "",
  };
}

function parseError(res: FetchResult): string {
  try {
    classifyBody(res);
  } catch (err) {
    assert.ok(err instanceof ApiError);
    assert.equal(err.code, "PARSE_ERROR");
    assert.equal(err.status, 502);
    return err.message;
  }
  assert.fail("expected a PARSE_ERROR");
}

Deno.test("HTML types are pages whatever the body looks like", () => {
  assert.deepEqual(classifyBody(response("text/html", '{"imports":{}}')), {
    kind: "page",
    warning: null,
  });
  assert.equal(classifyBody(response("application/xhtml+xml", "<html/>")).kind, "page");
});

Deno.test("JSON types, and text/plain named .json, are manifests when the shape fits", () => {
  const pkg = '{"name":"a","dependencies":{"b":"1"}}';
  for (
    const [type, path] of [
      ["application/json", "/x"],
      ["application/importmap+json", "/x"],
      ["text/plain", "/package.json"],
      [null, "/whatever"],
    ] as const
  ) {
    const kind = classifyBody(response(type, pkg, path));
    assert.equal(kind.kind, "manifest", `${type} ${path}`);
    assert.equal(kind.kind === "manifest" && kind.format, "package.json");
  }
});

Deno.test("deno.jsonc with comments reads as a manifest", () => {
  const body = '{\n  // tasks\n  "tasks": {"a": "b"}, /* map */ "imports": {"x": "npm:x@1"}\n}';
  const kind = classifyBody(response("application/json", body, "/deno.jsonc"));
  assert.equal(kind.kind === "manifest" && kind.format, "deno.json");
});

Deno.test("text/plain that is not JSON is read as HTML, with a warning", () => {
  assert.deepEqual(classifyBody(response("text/plain", "not found")), {
    kind: "page",
    warning: "Content-Type is text/plain, not text/html; parsed as HTML anyway",
  });
  assert.equal(classifyBody(response(null, "{ not json")).kind, "page");
});

Deno.test("binary, broken JSON, JSON of another shape and other types are PARSE_ERROR", () => {
  assert.match(parseError(response("image/png", new Uint8Array([137, 80, 78, 71]))), /binary/);
  assert.match(parseError(response("text/html", new Uint8Array([60, 104, 0, 1, 2]))), /binary/);
  assert.match(parseError(response("application/octet-stream", "hello")), /binary/);
  assert.match(parseError(response("application/json", "{oops")), /^Response is not valid JSON/);
  assert.match(parseError(response("text/plain", "{oops", "/package.json")), /not valid JSON/);
  assert.equal(
    parseError(response("application/json", '{"hello":"world"}')),
    "Response is JSON but not a package.json, deno.json or import map",
  );
  assert.equal(
    parseError(response("text/css", "body{}")),
    "Response is text/css: not an HTML page or a manifest",
  );
});

Deno.test("a deno.jsonc's comments are dropped, comment-like strings kept", () => {
  const text = '{"imports": {"u": "https://x//y", /* c */ "s": "/* no */", "q": "a\\"//b"}} // end';
  const read = classifyBody(response(null, text, "/deno.jsonc"));
  assert.equal(read.kind, "manifest");
  assert.deepEqual((read as { json: unknown }).json, {
    imports: { u: "https://x//y", s: "/* no */", q: 'a"//b' },
  });
});
