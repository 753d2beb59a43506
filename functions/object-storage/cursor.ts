/**
 * Listing cursors: the last key of a page, base64url-encoded so that it is opaque to clients
 * and safe in a query string. A cursor that does not decode to a valid key is refused.
 */
import { isValidKey } from "../../shared/bindings/bucket/mod.ts";

const BASE64URL = /^[A-Za-z0-9_-]+$/;
const DECODER = new TextDecoder("utf-8", { fatal: true });

/** The cursor that continues a listing after `key`. */
export function encodeCursor(key: string): string {
  let binary = "";
  for (const byte of new TextEncoder().encode(key)) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

/** The key a cursor continues after; null when it is not one of ours. */
export function decodeCursor(cursor: string): string | null {
  if (!BASE64URL.test(cursor) || cursor.length > 2048) return null;
  try {
    const binary = atob(cursor.replace(/-/g, "+").replace(/_/g, "/"));
    const key = DECODER.decode(Uint8Array.from(binary, (ch) => ch.charCodeAt(0)));
    return isValidKey(key) ? key : null;
  } catch {
    return null;
  }
}
