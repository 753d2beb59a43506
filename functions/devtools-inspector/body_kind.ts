/** What a response body is, for the inspector: the shared sniffer's kinds, audio and video as one. */
import { sniffKind } from "../../shared/net/sniff.ts";
import type { BodyKind } from "./schema.ts";

/** Classifies a body; `charset` is the one it decodes with (UTF-16 text is full of NULs). */
export function bodyKind(contentType: string | null, body: Uint8Array, charset: string): BodyKind {
  if (body.length === 0) return "empty";
  const kind = sniffKind(contentType, body, charset);
  return kind === "video" || kind === "audio" ? "media" : kind;
}
