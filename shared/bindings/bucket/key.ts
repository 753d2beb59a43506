/**
 * Object key syntax, the same for every bucket adapter so that a key accepted locally is
 * accepted in production and the other way round. A key is 1–1024 bytes of UTF-8 made of
 * `/`-separated segments; the rules keep keys from ever meaning a path outside a bucket,
 * wherever they end up (a folder on disk, a public URL, a proxy that decodes once more).
 */

import { utf8Length } from "../../net/utf8_length.ts";

/** The longest key, in UTF-8 bytes (S3's limit). */
export const MAX_KEY_BYTES = 1024;

// C0 controls, DEL and C1 controls: invisible, and NUL truncates paths in some systems.
// deno-lint-ignore no-control-regex
const CONTROL = /[\u0000-\u001f\u007f-\u009f]/;

// Bidirectional controls (embeddings, overrides, isolates, marks): they make a key read as
// another in a listing or a log (`photo\u202egpj.exe`).
const BIDI = /[\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

/** True when `segment` is `.` or `..`, also once percent-decoded (`%2e%2e`, `.%2E`). */
function isDotSegment(segment: string): boolean {
  const decoded = segment.replace(/%2e/gi, ".");
  return decoded === "." || decoded === "..";
}

/**
 * Why `key` is not a valid key, or null when it is. The rules: 1–1024 bytes of UTF-8; no
 * control characters, bidirectional ones included; no backslash (a separator on some systems); no leading `/`; no empty
 * segment (`a//b`, trailing `/`); no `.` or `..` segment, not even percent-encoded.
 */
export function keyProblem(key: string): string | null {
  if (key.length === 0) return "empty";
  if (!key.isWellFormed()) return "not well-formed Unicode";
  if (utf8Length(key) > MAX_KEY_BYTES) return `longer than ${MAX_KEY_BYTES} bytes`;
  if (CONTROL.test(key)) return "control character";
  if (BIDI.test(key)) return "bidirectional control character";
  if (key.includes("\\")) return "backslash";
  if (key.startsWith("/")) return "leading slash";
  for (const segment of key.split("/")) {
    if (segment === "") return "empty segment";
    if (isDotSegment(segment)) return "dot segment";
  }
  return null;
}

/** True when `key` follows the key rules of {@link keyProblem}. */
export function isValidKey(key: string): boolean {
  return keyProblem(key) === null;
}

/** True when `prefix` can start a key: at most 1024 bytes and no control characters. */
export function isValidPrefix(prefix: string): boolean {
  return prefix.isWellFormed() && utf8Length(prefix) <= MAX_KEY_BYTES &&
    !CONTROL.test(prefix) && !BIDI.test(prefix);
}

/** The key as a URL path: each segment percent-encoded, the `/` between them kept. */
export function encodeKeyPath(key: string): string {
  return key.split("/").map(encodeURIComponent).join("/");
}
