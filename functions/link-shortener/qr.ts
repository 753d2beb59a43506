/**
 * QR codes of short URLs, through `qrcode` (npm): pure JavaScript, SVG as a string and PNG
 * through `pngjs` (also pure JavaScript, no canvas, no native code), so it runs at the edge.
 * It is loaded on the first `/qr` request, not at start-up.
 */
import { onFirstUse } from "../../shared/contract/lazy.ts";

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

/** The image of `text` as a QR code, with its content type. */
export async function renderQr(
  text: string,
  options: QrOptions,
): Promise<{ body: Uint8Array | string; contentType: string }> {
  const QRCode = (await loadQrcode()).default;
  const common = { margin: options.margin, width: options.size, errorCorrectionLevel: options.ecc };
  if (options.format === "svg") {
    const svg = await QRCode.toString(text, { ...common, type: "svg" });
    return { body: svg, contentType: "image/svg+xml" };
  }
  const png = await QRCode.toBuffer(text, { ...common, type: "png" });
  return { body: new Uint8Array(png), contentType: "image/png" };
}
