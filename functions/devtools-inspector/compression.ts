/** Transfer compression: what was sent, how much it saved, and whether it should have been used. */
import type { BodyKind, CompressionInfo } from "./schema.ts";

/** Below this many bytes compression rarely pays for its framing (as CDNs default to). */
export const COMPRESS_MIN_BYTES = 1024;

/** Body kinds that are text and compress well. */
const TEXTUAL: ReadonlySet<BodyKind> = new Set(["html", "json", "text"]);

/** Describes the compression of a body received as `encodedBytes` and decoded to `decodedBytes`. */
export function describeCompression(
  contentEncoding: string | null,
  encodedBytes: number,
  decodedBytes: number,
  kind: BodyKind,
): CompressionInfo {
  const encoding = contentEncoding?.trim().toLowerCase() || null;
  const identity = encoding === null || encoding === "identity";
  const ratio = decodedBytes > 0 ? Math.round((encodedBytes / decodedBytes) * 1000) / 1000 : null;
  let advice: string | null = null;
  if (identity && TEXTUAL.has(kind) && decodedBytes >= COMPRESS_MIN_BYTES) {
    advice = `${decodedBytes} bytes of text sent uncompressed: enable gzip or br`;
  } else if (!identity && ratio !== null && ratio >= 1) {
    advice = `${encoding} did not shrink this body: skip compression for it`;
  }
  return { contentEncoding: encoding, encodedBytes, decodedBytes, ratio, advice };
}
