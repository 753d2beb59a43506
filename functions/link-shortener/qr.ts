/**
 * QR codes of short URLs, through `qrcode` (npm): pure JavaScript, so it runs at the edge; the
 * SVG is its own, the PNG is encoded here from its modules, a slice at a time (qr_png.ts).
 * It is loaded on the first `/qr` request, not at start-up.
 */
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { pause } from "../../shared/contract/cooperative.ts";
import { qrPng } from "./qr_png.ts";

/** The options of `GET /:code/qr`. */
export interface QrOptions {
  format: "svg" | "png";
  /** Width and height of the image in pixels. */
  size: number;
  /** Quiet zone around the code, in modules. */
  margin: number;
  /** Error-correction level: L (7 %), M (15 %), Q (25 %), H (30 %). */
  ecc: "L" | "M" | "Q" | "H";
}

// @ts-types="@types/qrcode"
const loadQrcode = onFirstUse(() => import("qrcode"));

/** An image and its content type. */
export interface QrImage {
  body: Uint8Array | string;
  contentType: string;
}

/** Images kept (a short URL's code is a few hundred bytes to ~60 KB). */
const CACHE_ENTRIES = 256;

/**
 * Images by text and options, most recently used last; a request for one being made waits
 * for it. Bounded, and only a speed-up: an instance that restarts makes them again.
 */
const cache = new Map<string, Promise<QrImage>>();

/**
 * The image of `text` as a QR code, with its content type: made once per text and options
 * (kept in a bounded cache), a PNG in slices that let other requests run (qr_png.ts).
 */
export function renderQr(text: string, options: QrOptions): Promise<QrImage> {
  const key = JSON.stringify([text, options.format, options.size, options.margin, options.ecc]);
  const kept = cache.get(key);
  if (kept) {
    cache.delete(key);
    cache.set(key, kept);
    return kept;
  }
  const made = make(text, options);
  cache.set(key, made);
  made.catch(() => cache.delete(key));
  if (cache.size > CACHE_ENTRIES) cache.delete(cache.keys().next().value!);
  return made;
}

async function make(text: string, options: QrOptions): Promise<QrImage> {
  const QRCode = (await loadQrcode()).default;
  const common = { margin: options.margin, width: options.size, errorCorrectionLevel: options.ecc };
  if (options.format === "svg") {
    const svg = await QRCode.toString(text, { ...common, type: "svg" });
    return { body: svg, contentType: "image/svg+xml" };
  }
  const { modules } = QRCode.create(text, { errorCorrectionLevel: options.ecc });
  // A pause after every slice, not once a slice of time has passed: ten images made at once
  // would otherwise each run their 10 ms back to back, between two chances for I/O.
  const png = await qrPng(modules, options.size, options.margin, pause);
  return { body: png, contentType: "image/png" };
}
