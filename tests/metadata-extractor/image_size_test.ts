/** Pixel sizes read from image headers. */
import assert from "node:assert/strict";
import { imageSize } from "../../functions/metadata-extractor/image_size.ts";

function u8(...parts: (number[] | string)[]): Uint8Array {
  return new Uint8Array(
    parts.flatMap((p) => (typeof p === "string" ? [...p].map((c) => c.charCodeAt(0)) : p)),
  );
}

Deno.test("PNG, GIF, JPEG and WebP sizes", () => {
  const png = u8([0x89], "PNG\r\n\x1a\n", [0, 0, 0, 13], "IHDR", [0, 0, 1, 0x2c, 0, 0, 0, 0xc8]);
  assert.deepEqual(imageSize(png), { width: 300, height: 200 });
  const gif = u8("GIF89a", [0x40, 0x01, 0xf0, 0x00]);
  assert.deepEqual(imageSize(gif), { width: 320, height: 240 });
  // SOI, an APP0 segment of 4 bytes, then SOF0 with height 0x01e0 and width 0x0280.
  const jpeg = u8([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x04,
    0x00,
    0x00,
    0xff,
    0xc0,
    0x00,
    0x11,
    0x08,
    0x01,
    0xe0,
    0x02,
    0x80,
    0x03,
  ]);
  assert.deepEqual(imageSize(jpeg), { width: 640, height: 480 });
  const vp8x = u8("RIFF", [0, 0, 0, 0], "WEBP", "VP8X", [10, 0, 0, 0], [0, 0, 0, 0], [
    0x1f,
    0x03,
    0x00,
  ], [0xdf, 0x01, 0x00]);
  assert.deepEqual(imageSize(vp8x), { width: 800, height: 480 });
  const vp8 = u8(
    "RIFF",
    [0, 0, 0, 0],
    "WEBP",
    "VP8 ",
    [0, 0, 0, 0],
    [0, 0, 0],
    [0x9d, 0x01, 0x2a],
    [0x40, 0x01, 0xf0, 0x00],
  );
  assert.deepEqual(imageSize(vp8), { width: 320, height: 240 });
});

Deno.test("unknown or truncated headers give null, never throw", () => {
  assert.equal(imageSize(u8("<!doctype html>")), null);
  assert.equal(imageSize(u8([0x89], "PNG")), null);
  assert.equal(imageSize(u8([0xff, 0xd8, 0xff, 0xe0, 0x00])), null);
  assert.equal(imageSize(new Uint8Array()), null);
});
