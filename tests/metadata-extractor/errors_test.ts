/**
 * The error rows of `/metadata`: invalid input before any fetch, refused connection, timeout,
 * upstream 404, oversize and binary bodies, redirects and charset decoding.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { fetchInputContractTests } from "../support/fetch_app.ts";
import { guardedPolicy } from "../support/policy.ts";
import { startHarness } from "./harness.ts";

/** A 3x2 PNG: signature and IHDR (the size is all the extractor reads). */
const PNG = new Uint8Array([
  0x89,
  0x50,
  0x4e,
  0x47,
  0x0d,
  0x0a,
  0x1a,
  0x0a, // signature
  0x00,
  0x00,
  0x00,
  0x0d,
  0x49,
  0x48,
  0x44,
  0x52, // IHDR, 13 bytes
  0x00,
  0x00,
  0x00,
  0x03,
  0x00,
  0x00,
  0x00,
  0x02, // width 3, height 2
  0x08,
  0x06,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
  0x00,
]);

/** Bytes of no known format, with NULs (a zip-like archive). */
const BLOB = new Uint8Array([
  0x50,
  0x4b,
  0x03,
  0x04,
  0x00,
  0x00,
  0x08,
  0x00,
  0xff,
  0x00,
  0x13,
  0x37,
]);

function bytes(body: Uint8Array, type: string) {
  return () => new Response(body.slice(), { headers: { "content-type": type } });
}

fetchInputContractTests(createApp, "/metadata");

Deno.test("a page that never answers is 502 FETCH_ERROR after the fetch timeout", async () => {
  const h = startHarness({ timeoutMs: 300 });
  try {
    // Ended by the timeout, before the server's answer at 5 s.
    const { status, body } = await endedByDeadline(
      h.metadata(h.fixture.url("/stall?ms=5000")),
      300,
      5000,
    );
    assert.equal(status, 502);
    assert.equal(body.code, "FETCH_ERROR");
    assert.match(body.error as string, /^Timed out after 300 ms/);
  } finally {
    await h.close();
  }
});

Deno.test("an upstream 404 page is still described: 200 with status 404", async () => {
  const h = startHarness();
  try {
    const { status, body } = await h.metadata(h.fixture.url("/pages/blog.html?status=404"));
    assert.equal(status, 200);
    assert.equal(body.status, 404);
    assert.equal(body.title, "Rebuilding the Edge Cache in a Weekend");

    const missing = await h.metadata(h.fixture.url("/pages/no-such-page.html"));
    assert.equal(missing.status, 200);
    assert.equal(missing.body.status, 404);
    assert.equal(missing.body.type, "text"); // the fixture server's plain-text "not found"
    assert.equal(missing.body.title, null);
  } finally {
    await h.close();
  }
});

Deno.test("a body over the size cap is 502 FETCH_ERROR", async () => {
  const h = startHarness({ maxBytes: 64 * 1024 });
  try {
    const { status, body } = await h.metadata(h.fixture.url("/huge?bytes=1000000"));
    assert.equal(status, 502);
    assert.deepEqual(body, { error: "Response body exceeds 65536 bytes", code: "FETCH_ERROR" });
  } finally {
    await h.close();
  }
});

Deno.test("an image URL is described as an image, with its pixel size", async () => {
  const h = startHarness({}, {
    "/photo.png": bytes(PNG, "image/png"),
    "/mislabelled": bytes(PNG, "text/html; charset=utf-8"),
    "/untyped": bytes(PNG, "application/octet-stream"),
  });
  try {
    for (const path of ["/photo.png", "/mislabelled", "/untyped"]) {
      const url = h.fixture.url(path);
      const { status, body } = await h.metadata(url);
      assert.equal(status, 200, path);
      assert.equal(body.type, "image", path);
      assert.deepEqual(body.image, { url, width: 3, height: 2, alt: null }, path);
      assert.equal(body.title, null, path);
      assert.equal(body.favicon, h.fixture.url("/favicon.ico"), path);
    }
  } finally {
    await h.close();
  }
});

Deno.test("a binary body that is no image is 502 PARSE_ERROR, whatever its declared type", async () => {
  const h = startHarness({}, {
    "/archive.zip": bytes(BLOB, "application/zip"),
    "/fake.html": bytes(BLOB, "text/html"),
  });
  try {
    const zip = await h.metadata(h.fixture.url("/archive.zip"));
    assert.equal(zip.status, 502);
    assert.deepEqual(zip.body, {
      error: "Not an HTML page: cannot extract metadata from application/zip binary body",
      code: "PARSE_ERROR",
    });
    const fake = await h.metadata(h.fixture.url("/fake.html"));
    assert.equal(fake.status, 502);
    assert.equal(fake.body.code, "PARSE_ERROR");
  } finally {
    await h.close();
  }
});

Deno.test("latin-1 bytes are decoded by <meta charset> or by the header's charset", async () => {
  const h = startHarness();
  try {
    for (const type of ["text/html", "text/html; charset=iso-8859-1"]) {
      const path = `/pages/latin1.html?type=${encodeURIComponent(type)}`;
      const { body } = await h.metadata(h.fixture.url(path));
      assert.equal(body.title, "Café Münster – Kaffee & Kuchen", type);
      assert.equal(body.author, "Jürgen Weiß", type);
      assert.equal(body.favicon, h.fixture.url("/favicon-m%C3%BCnster.png"), type);
    }
  } finally {
    await h.close();
  }
});

Deno.test("UTF-16 HTML (NUL bytes, with a BOM) is text, not a binary body", async () => {
  const html = "<html><head><title>Zwölf Boxkämpfer</title></head></html>";
  const utf16 = new Uint8Array(2 + html.length * 2);
  utf16.set([0xff, 0xfe]);
  for (let i = 0; i < html.length; i++) utf16[2 + 2 * i] = html.charCodeAt(i); // all < 256
  const h = startHarness({}, { "/utf16.html": bytes(utf16, "text/html") });
  try {
    const { status, body } = await h.metadata(h.fixture.url("/utf16.html"));
    assert.equal(status, 200);
    assert.equal(body.title, "Zwölf Boxkämpfer");
  } finally {
    await h.close();
  }
});

Deno.test("after a redirect, relative URLs resolve against the final URL", async () => {
  const h = startHarness();
  try {
    const start = h.fixture.url(`/redirect?to=${encodeURIComponent("/pages/broken-jsonld.html")}`);
    const { status, body } = await h.metadata(start);
    assert.equal(status, 200);
    assert.equal(body.url, start);
    assert.equal(body.finalUrl, h.fixture.url("/pages/broken-jsonld.html"));
    assert.equal(body.canonical, h.fixture.url("/docs/v2/guide.html")); // <base href="/docs/v2/">
  } finally {
    await h.close();
  }
});

Deno.test("a gzip-encoded page is decompressed before extraction", async () => {
  const h = startHarness();
  try {
    const { body } = await h.metadata(h.fixture.url("/pages/blog.html?encoding=gzip"));
    assert.equal(body.title, "Rebuilding the Edge Cache in a Weekend");
  } finally {
    await h.close();
  }
});

Deno.test("the route is in the OpenAPI document with its 200, 400 and 502 responses", async () => {
  const { createApp } = await import("../../functions/metadata-extractor/app.ts");
  const app = createApp({ fetchPolicy: guardedPolicy() }, { log: () => {} });
  const doc = await (await app.request("/openapi.json")).json();
  const responses = doc.paths["/metadata"].get.responses;
  assert.deepEqual(Object.keys(responses).sort(), ["200", "400", "502"]);
  assert.match(responses["502"].description, /FETCH_ERROR/);
  assert.match(responses["502"].description, /PARSE_ERROR/);
  const root = await (await app.request("/")).json();
  assert.equal(root.usage, "GET /metadata?url=<url>");
});
