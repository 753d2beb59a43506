/**
 * `GET /:code/qr`: the short URL (on the request origin or PUBLIC_BASE_URL) as an SVG or PNG
 * QR code with the asked size, margin and error-correction level; bad options are 400.
 */
import assert from "node:assert/strict";
// @ts-types="@types/qrcode"
import QRCode from "qrcode";
import { pngSize } from "../support/png.ts";
import { linkApp, ORIGIN } from "./app_fixture.ts";

Deno.test("GET /:code/qr: SVG by default, encoding the short URL", async () => {
  await using fx = await linkApp();
  await fx.shorten({ url: "https://example.com/", code: "qr-me" });
  const res = await fx.get("/qr-me/qr");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/svg+xml");
  const svg = await res.text();
  assert.match(svg, /^<svg [^>]*width="256" height="256"/);
  const expected = await QRCode.toString(`${ORIGIN}/qr-me`, {
    type: "svg",
    width: 256,
    margin: 4,
    errorCorrectionLevel: "M",
  });
  assert.equal(svg, expected, "the short URL at ecc M, margin 4");
  const other = await QRCode.toString(`${ORIGIN}/qr-me2`, { type: "svg", width: 256 });
  assert.notEqual(svg, other);
});

Deno.test("GET /:code/qr: PNG with size, margin and ecc; PUBLIC_BASE_URL is the encoded base", async () => {
  await using fx = await linkApp({ publicBaseUrl: "https://go.example/s" });
  await fx.shorten({ url: "https://example.com/", code: "qr-png" });
  const res = await fx.get("/qr-png/qr?format=png&size=300&margin=1&ecc=H");
  assert.equal(res.status, 200);
  assert.equal(res.headers.get("content-type"), "image/png");
  const png = new Uint8Array(await res.arrayBuffer());
  assert.deepEqual(pngSize(png), { width: 300, height: 300 });
  const expected = await QRCode.toBuffer("https://go.example/s/qr-png", {
    type: "png",
    width: 300,
    margin: 1,
    errorCorrectionLevel: "H",
  });
  assert.deepEqual(png, new Uint8Array(expected));
  const low = new Uint8Array(
    await (await fx.get("/qr-png/qr?format=png&size=300&margin=1&ecc=L"))
      .arrayBuffer(),
  );
  assert.notDeepEqual(low, png, "the level changes the code");
});

Deno.test("GET /:code/qr: bad options are 400 INVALID_INPUT; unknown 404; expired 404 Link expired", async () => {
  await using fx = await linkApp();
  await fx.shorten({ url: "https://example.com/", code: "qr-bad" });
  const cases: [string, string][] = [
    ["format=gif", "format must be svg or png"],
    ["size=10", "size must be an integer from 64 to 2048"],
    ["size=5000", "size must be an integer from 64 to 2048"],
    ["size=abc", "size must be an integer from 64 to 2048"],
    // Decimal digits only (Number() takes these three).
    ["size=1e3", "size must be an integer from 64 to 2048"],
    ["size=0x100", "size must be an integer from 64 to 2048"],
    ["size=%20256", "size must be an integer from 64 to 2048"],
    ["size=256.0", "size must be an integer from 64 to 2048"],
    ["margin=1e1", "margin must be an integer from 0 to 16"],
    ["margin=-1", "margin must be an integer from 0 to 16"],
    ["ecc=X", "ecc must be L, M, Q or H"],
  ];
  for (const [query, error] of cases) {
    const res = await fx.get(`/qr-bad/qr?${query}`);
    assert.equal(res.status, 400, query);
    assert.deepEqual(await res.json(), { error, code: "INVALID_INPUT" });
  }
  const missing = await fx.get("/nothing/qr");
  assert.equal(missing.status, 404);
  await missing.body?.cancel();
  await fx.db.execute(
    "INSERT INTO links (code, url, custom, created_at, expires_at) " +
      "VALUES ('qr-old', 'https://example.com/', 1, '2000-01-01', '2001-01-01T00:00:00.000Z')",
  );
  const expired = await fx.get("/qr-old/qr");
  assert.equal(expired.status, 404);
  assert.deepEqual(await expired.json(), { error: "Link expired", code: "NOT_FOUND" });
});
