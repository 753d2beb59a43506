/**
 * A QR code's modules as a grayscale PNG, encoded a few rows at a time: qrcode's own PNG path
 * (pngjs, pure JavaScript, RGBA) took ~0.3 s of CPU for a 2048-pixel code without a pause, so
 * every other request of the instance waited. Here the rows are built in slices with
 * `yieldSoon` between them and compressed by the runtime's CompressionStream, chunk by chunk.
 * The pixels are those of qrcode's renderer (same scale, margin and rounding).
 */

/** qrcode's `QRCode.create(…).modules`: a square of dark (1) and light (0) modules. */
export interface QrModules {
  size: number;
  data: Uint8Array;
}

/** qrcode's default scale when the asked width cannot hold one pixel per module. */
const DEFAULT_SCALE = 4;

/** Rows per slice between two chances to yield. */
const ROWS_PER_SLICE = 32;

const CRC_TABLE = (() => {
  const table = new Uint32Array(256);
  for (let n = 0; n < 256; n++) {
    let c = n;
    for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
    table[n] = c >>> 0;
  }
  return table;
})();

function crc32(bytes: Uint8Array): number {
  let c = 0xffffffff;
  for (let i = 0; i < bytes.length; i++) c = CRC_TABLE[(c ^ bytes[i]) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

/** One PNG chunk: length, type, data, CRC of type and data. */
function chunk(type: string, data: Uint8Array): Uint8Array {
  const out = new Uint8Array(12 + data.length);
  const view = new DataView(out.buffer);
  view.setUint32(0, data.length);
  for (let i = 0; i < 4; i++) out[4 + i] = type.charCodeAt(i);
  out.set(data, 8);
  view.setUint32(8 + data.length, crc32(out.subarray(4, 8 + data.length)));
  return out;
}

/**
 * The PNG of `modules` `width` pixels wide (qrcode's rule: when the width cannot hold the code
 * and its margin, the scale is 4), with `margin` light modules around it.
 */
export async function qrPng(
  modules: QrModules,
  width: number,
  margin: number,
  yieldSoon: () => Promise<void>,
): Promise<Uint8Array> {
  const { size, data } = modules;
  const scale = width >= size + margin * 2 ? width / (size + margin * 2) : DEFAULT_SCALE;
  const side = Math.floor((size + margin * 2) * scale);
  const scaledMargin = margin * scale;
  const header = new Uint8Array(13);
  const view = new DataView(header.buffer);
  view.setUint32(0, side);
  view.setUint32(4, side);
  header[8] = 8; // bit depth
  header[9] = 0; // grayscale
  const compressed: Uint8Array[] = [];
  const stream = new CompressionStream("deflate");
  const writer = stream.writable.getWriter();
  const reading = (async () => {
    for await (const part of stream.readable) compressed.push(part);
  })();
  // Each row: filter byte 0, then one byte per pixel (0 dark, 255 light).
  const row = (y: number, out: Uint8Array, at: number) => {
    out[at] = 0;
    const inY = y >= scaledMargin && y < side - scaledMargin;
    const srcY = Math.floor((y - scaledMargin) / scale);
    for (let x = 0; x < side; x++) {
      let light = true;
      if (inY && x >= scaledMargin && x < side - scaledMargin) {
        light = !data[srcY * size + Math.floor((x - scaledMargin) / scale)];
      }
      out[at + 1 + x] = light ? 255 : 0;
    }
  };
  for (let y = 0; y < side; y += ROWS_PER_SLICE) {
    const rows = Math.min(ROWS_PER_SLICE, side - y);
    const slice = new Uint8Array(rows * (side + 1));
    for (let r = 0; r < rows; r++) row(y + r, slice, r * (side + 1));
    await writer.write(slice);
    await yieldSoon();
  }
  await writer.close();
  await reading;
  const idat = new Uint8Array(compressed.reduce((n, p) => n + p.length, 0));
  let offset = 0;
  for (const part of compressed) {
    idat.set(part, offset);
    offset += part.length;
  }
  const parts = [
    new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", idat),
    chunk("IEND", new Uint8Array()),
  ];
  const png = new Uint8Array(parts.reduce((n, p) => n + p.length, 0));
  offset = 0;
  for (const part of parts) {
    png.set(part, offset);
    offset += part.length;
  }
  return png;
}
