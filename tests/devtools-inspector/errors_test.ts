/**
 * The error rows of `/inspect`: invalid input before any fetch, refused connection, timeout,
 * upstream 404, oversize and binary bodies, and redirects to private addresses.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { fetchInputContractTests } from "../support/fetch_app.ts";
import { guardedPolicy } from "../support/policy.ts";
import { startHarness } from "./harness.ts";

/** PNG signature and the start of an IHDR chunk. */
const PNG = new Uint8Array([
  ...[0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  ...[0x00, 0x00, 0x00, 0x0d, 0x49, 0x48, 0x44, 0x52],
  ...[0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02, 0x08, 0x06, 0x00, 0x00, 0x00],
]);

/** Bytes of no known format, with NULs (the start of a zip archive). */
const BLOB = new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00, 0x00, 0x08, 0x00, 0xff, 0x00, 0x13]);

function bytes(body: Uint8Array, type: string) {
  return () => new Response(body.slice(), { headers: { "content-type": type } });
}

fetchInputContractTests(createApp, "/inspect");

Deno.test("no headers, or a body that never ends, is 502 FETCH_ERROR at the timeout", async () => {
  const h = startHarness({ timeoutMs: 300 });
  try {
    for (const path of ["/stall?ms=5000", "/slow-body?ms=5000"]) {
      // Ended by the timeout, before the server's answer (or body) at 5 s.
      const { status, body } = await endedByDeadline(h.inspect(h.fixture.url(path)), 300, 5000);
      assert.equal(status, 502, path);
      assert.equal(body.code, "FETCH_ERROR", path);
      assert.match(
        body.error as string,
        /^Timed out after 300 ms fetching 127\.0\.0\.1:\d+$/,
        path,
      );
    }
  } finally {
    await h.close();
  }
});

Deno.test("an upstream 404 is still inspected: 200 with status 404", async () => {
  const h = startHarness();
  try {
    const page = await h.inspect(h.fixture.url("/pages/blog.html?status=404"));
    assert.equal(page.status, 200);
    assert.equal(page.body.status, 404);
    assert.equal(page.body.statusText, "Not Found");
    assert.equal((page.body.page as { title: string }).title.startsWith("Rebuilding"), true);

    const missing = await h.inspect(h.fixture.url("/pages/no-such-page.html"));
    assert.equal(missing.status, 200);
    assert.equal(missing.body.status, 404);
    assert.equal(missing.body.bodyKind, "text"); // the fixture server's plain-text "not found"
    assert.equal(missing.body.page, null);
    assert.equal((missing.body.caching as { policy: string }).policy, "not-cacheable");
  } finally {
    await h.close();
  }
});

Deno.test("a body over the size cap is 502 FETCH_ERROR", async () => {
  const h = startHarness({ maxBytes: 64 * 1024 });
  try {
    const { status, body } = await h.inspect(h.fixture.url("/huge?bytes=1000000"));
    assert.equal(status, 502);
    assert.deepEqual(body, { error: "Response body exceeds 65536 bytes", code: "FETCH_ERROR" });
  } finally {
    await h.close();
  }
});

Deno.test("binary bodies are inspected honestly: their kind, no page statistics", async () => {
  const h = startHarness({}, {
    "/archive.zip": bytes(BLOB, "application/zip"),
    "/fake.html": bytes(BLOB, "text/html"),
    "/photo.png": bytes(PNG, "image/png"),
    "/mislabelled": bytes(PNG, "text/html; charset=utf-8"),
    "/empty": () => new Response(null, { status: 204 }),
  });
  try {
    const cases: [string, string][] = [
      ["/archive.zip", "binary"],
      ["/fake.html", "binary"],
      ["/photo.png", "image"],
      ["/mislabelled", "image"],
      ["/empty", "empty"],
    ];
    for (const [path, kind] of cases) {
      const { status, body } = await h.inspect(h.fixture.url(path));
      assert.equal(status, 200, path);
      assert.equal(body.bodyKind, kind, path);
      assert.equal(body.page, null, path);
      const compression = body.compression as { decodedBytes: number; advice: string | null };
      assert.equal(compression.decodedBytes, path === "/empty" ? 0 : kind === "image" ? 29 : 11);
      assert.equal(compression.advice, null, path); // no advice to gzip a binary body
      const checks = (body.security as { checks: { id: string; result: string }[] }).checks;
      const sri = checks.find((c) => c.id === "subresource-integrity");
      assert.equal(sri?.result, "sri-not-implemented-response-not-html", path);
    }
  } finally {
    await h.close();
  }
});

Deno.test("a redirect to a private address is 502 FETCH_ERROR and the target gets no request", async () => {
  const h = startHarness();
  try {
    const origin = h.fixture.origin;
    // The fixture server passes as public; rebind.test is a name that resolves to loopback.
    const policy = guardedPolicy({ "rebind.test": "127.0.0.1" }, [origin]);
    const guarded = startHarness(policy);
    try {
      const port = h.fixture.port;
      const targets: [string, RegExp][] = [
        [
          "http://10.0.0.1/admin",
          /^Refused to connect to 10\.0\.0\.1: private or reserved address$/,
        ],
        [
          `http://rebind.test:${port}/pages/blog.html`,
          /^Refused to connect to rebind\.test: it resolves to a private or reserved address$/,
        ],
      ];
      for (const [target, message] of targets) {
        const start = h.fixture.url(`/redirect?to=${encodeURIComponent(target)}`);
        const { status, body } = await guarded.inspect(start);
        assert.equal(status, 502, target);
        assert.equal(body.code, "FETCH_ERROR", target);
        assert.match(body.error as string, message);
      }
      assert.equal(h.fixture.hits("/redirect"), 2);
      assert.equal(h.fixture.hits("/pages/blog.html"), 0);
    } finally {
      await guarded.close();
    }
  } finally {
    await h.close();
  }
});

Deno.test("redirect hops are listed with absolute URLs, statuses and resolved Locations", async () => {
  const h = startHarness();
  try {
    const last = "/pages/latin1.html";
    const second = `/redirect?to=${encodeURIComponent(last)}&status=307`;
    const first = h.fixture.url(`/redirect?to=${encodeURIComponent(second)}&status=301`);
    const { status, body } = await h.inspect(first);
    assert.equal(status, 200);
    assert.equal(body.url, first);
    assert.equal(body.finalUrl, h.fixture.url(last));
    assert.deepEqual(body.redirects, [
      { url: first, status: 301, location: h.fixture.url(second) },
      { url: h.fixture.url(second), status: 307, location: h.fixture.url(last) },
    ]);
  } finally {
    await h.close();
  }
});
