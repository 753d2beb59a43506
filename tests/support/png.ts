/**
 * PNGs in tests, read with `pngjs` (the PNG codec qrcode already brings): the size and the
 * RGBA value of any pixel, whatever the colour type and bit depth Chromium wrote.
 */
import { Buffer } from "node:buffer";
import { PNG } from "pngjs";

/** A decoded PNG. */
export interface Png {
  width: number;
  height: number;
  /** The pixel at (x, y) as [r, g, b, a] (a = 255 without an alpha channel). */
  pixel(x: number, y: number): [number, number, number, number];
}

/** Decodes a PNG fully (fine for test-sized images); throws on anything that is not one. */
export function decodePng(bytes: Uint8Array): Png {
  const { width, height, data } = PNG.sync.read(Buffer.from(bytes));
  return {
    width,
    height,
    pixel(x, y) {
      if (x < 0 || y < 0 || x >= width || y >= height) throw new RangeError(`(${x}, ${y})`);
      const at = (y * width + x) * 4;
      return [data[at], data[at + 1], data[at + 2], data[at + 3]];
    },
  };
}

/** Width and height of a PNG (decoded, so a broken image throws). */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  const { width, height } = decodePng(bytes);
  return { width, height };
}

/** Hex colour (`#3366cc`) as [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}
