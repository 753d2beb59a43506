/**
 * Pixel size of an image from its first bytes (PNG, GIF, JPEG, WebP), so that an image URL's
 * preview can say how big it is without decoding it. Unknown formats give null.
 */

import { sniffImage } from "../../shared/net/sniff.ts";

/** Width and height in pixels. */
export interface ImageSize {
  width: number;
  height: number;
}

function ascii(b: Uint8Array, from: number, to: number): string {
  return String.fromCharCode(...b.subarray(from, to));
}

/** Reads the size from the header; null when the format is unknown or the header is cut short. */
export function imageSize(b: Uint8Array): ImageSize | null {
  const v = new DataView(b.buffer, b.byteOffset, b.byteLength);
  const ok = (s: ImageSize) => (s.width > 0 && s.height > 0 ? s : null);
  try {
    switch (sniffImage(b)) {
      case "png": // IHDR is always the first chunk
        return ok({ width: v.getUint32(16), height: v.getUint32(20) });
      case "gif":
        return ok({ width: v.getUint16(6, true), height: v.getUint16(8, true) });
      case "webp":
        return webpSize(b, v);
      case "jpeg":
        return jpegSize(b, v);
    }
  } catch {
    // RangeError: a truncated header
  }
  return null;
}

function webpSize(b: Uint8Array, v: DataView): ImageSize | null {
  switch (ascii(b, 12, 16)) {
    case "VP8 ": // lossy: 14-bit sizes after the frame tag and start code
      return { width: v.getUint16(26, true) & 0x3fff, height: v.getUint16(28, true) & 0x3fff };
    case "VP8L": { // lossless: 14-bit width-1 and height-1 packed after the signature byte
      const bits = v.getUint32(21, true);
      return { width: (bits & 0x3fff) + 1, height: ((bits >> 14) & 0x3fff) + 1 };
    }
    case "VP8X": // extended: 24-bit canvas width-1 and height-1
      return {
        width: 1 + (b[24] | (b[25] << 8) | (b[26] << 16)),
        height: 1 + (b[27] | (b[28] << 8) | (b[29] << 16)),
      };
  }
  return null;
}

/** Walks JPEG segments to the first start-of-frame marker. */
function jpegSize(b: Uint8Array, v: DataView): ImageSize | null {
  let i = 2;
  while (i + 9 < b.length) {
    if (b[i] !== 0xff) return null;
    const marker = b[i + 1];
    if (marker === 0xff) { // fill byte
      i++;
      continue;
    }
    // SOF0..SOF15 carry the size, except DHT (C4), JPG (C8) and DAC (CC).
    if (marker >= 0xc0 && marker <= 0xcf && marker !== 0xc4 && marker !== 0xc8 && marker !== 0xcc) {
      return { height: v.getUint16(i + 5), width: v.getUint16(i + 7) };
    }
    i += 2 + v.getUint16(i + 2);
  }
  return null;
}
