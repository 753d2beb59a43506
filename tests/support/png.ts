/**
 * A tiny PNG reader for tests: the IHDR size and the RGB(A) value of any pixel of an 8-bit,
 * non-interlaced truecolour or greyscale image (what Chromium writes). IDAT is inflated with
 * node:zlib and the scanline filters are undone row by row.
 */
import { inflateSync } from "node:zlib";

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/** A decoded PNG. */
export interface Png {
  width: number;
  height: number;
  /** The pixel at (x, y) as [r, g, b, a] (a = 255 without an alpha channel). */
  pixel(x: number, y: number): [number, number, number, number];
}

/** Width and height from the IHDR chunk. */
export function pngSize(bytes: Uint8Array): { width: number; height: number } {
  if (!SIGNATURE.every((b, i) => bytes[i] === b)) throw new Error("not a PNG");
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (String.fromCharCode(...bytes.subarray(12, 16)) !== "IHDR") throw new Error("no IHDR");
  return { width: view.getUint32(16), height: view.getUint32(20) };
}

/** Decodes a PNG fully (fine for test-sized images). */
export function decodePng(bytes: Uint8Array): Png {
  const { width, height } = pngSize(bytes);
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const bitDepth = bytes[24];
  const colourType = bytes[25];
  const interlace = bytes[28];
  const channels = { 0: 1, 2: 3, 4: 2, 6: 4 }[colourType];
  if (bitDepth !== 8 || !channels || interlace !== 0) {
    throw new Error(`unsupported PNG: depth ${bitDepth}, colour type ${colourType}`);
  }
  const idat: Uint8Array[] = [];
  for (let at = 8; at < bytes.length;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    if (type === "IDAT") idat.push(bytes.subarray(at + 8, at + 8 + length));
    if (type === "IEND") break;
    at += 12 + length;
  }
  const raw = new Uint8Array(inflateSync(concat(idat)));
  const stride = width * channels;
  const pixels = new Uint8Array(stride * height);
  for (let y = 0; y < height; y++) {
    const filter = raw[y * (stride + 1)];
    const line = raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1));
    const out = pixels.subarray(y * stride, (y + 1) * stride);
    const prev = y > 0 ? pixels.subarray((y - 1) * stride, y * stride) : null;
    for (let i = 0; i < stride; i++) {
      const a = i >= channels ? out[i - channels] : 0;
      const b = prev ? prev[i] : 0;
      const c = prev && i >= channels ? prev[i - channels] : 0;
      out[i] = (line[i] + predict(filter, a, b, c)) & 0xff;
    }
  }
  return {
    width,
    height,
    pixel(x, y) {
      if (x < 0 || y < 0 || x >= width || y >= height) throw new RangeError(`(${x}, ${y})`);
      const p = pixels.subarray(y * stride + x * channels, y * stride + (x + 1) * channels);
      switch (channels) {
        case 1:
          return [p[0], p[0], p[0], 255];
        case 2:
          return [p[0], p[0], p[0], p[1]];
        case 3:
          return [p[0], p[1], p[2], 255];
        default:
          return [p[0], p[1], p[2], p[3]];
      }
    },
  };
}

function predict(filter: number, a: number, b: number, c: number): number {
  switch (filter) {
    case 0:
      return 0;
    case 1:
      return a;
    case 2:
      return b;
    case 3:
      return (a + b) >> 1;
    case 4: {
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
    }
    default:
      throw new Error(`bad PNG filter ${filter}`);
  }
}

function concat(parts: Uint8Array[]): Uint8Array {
  const out = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const p of parts) {
    out.set(p, offset);
    offset += p.length;
  }
  return out;
}

/** Hex colour (`#3366cc`) as [r, g, b]. */
export function rgb(hex: string): [number, number, number] {
  const n = parseInt(hex.replace("#", ""), 16);
  return [(n >> 16) & 0xff, (n >> 8) & 0xff, n & 0xff];
}
