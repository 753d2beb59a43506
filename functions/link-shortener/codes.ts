/** Short codes: the custom-code rule, the reserved names, and random generation. */

/** A custom code: 3 to 64 letters, digits, `_` or `-`. */
export const CODE_PATTERN = /^[A-Za-z0-9_-]{3,64}$/;

/** Length of a generated code (62^7 ≈ 3.5 × 10^12 codes). */
export const RANDOM_CODE_LENGTH = 7;

/** The base62 alphabet of generated codes. */
export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Paths a code must not take, compared case-insensitively: this app's own routes and names
 * that a deployment or a browser asks for on its own. Extend freely.
 */
export const RESERVED_CODES: ReadonlySet<string> = new Set([
  "shorten",
  "health",
  "healthz",
  "ready",
  "readyz",
  "docs",
  "openapi",
  "openapi.json",
  "api",
  "admin",
  "info",
  "static",
  "assets",
  "public",
  "metrics",
  "status",
  "login",
  "logout",
  "robots.txt",
  "favicon.ico",
  "sitemap.xml",
  ".well-known",
]);

/** True when `code` is one of {@link RESERVED_CODES} in any letter case. */
export function isReservedCode(code: string): boolean {
  return RESERVED_CODES.has(code.toLowerCase());
}

/** True when `code` could be a stored code (the pattern; generated codes match it too). */
export function isCodeShaped(code: string): boolean {
  return CODE_PATTERN.test(code);
}

// 248 = 4 × 62: bytes at or above it are dropped, so `byte % 62` is uniform (no modulo bias).
const UNBIASED_LIMIT = 256 - (256 % BASE62.length);

/**
 * A random base62 code from the CSPRNG (`crypto.getRandomValues`) by rejection sampling.
 * Never returns a reserved code.
 */
export function randomCode(length: number = RANDOM_CODE_LENGTH): string {
  for (;;) {
    let code = "";
    while (code.length < length) {
      // A few spare bytes cover the ~3% that are rejected, so one draw nearly always does.
      const bytes = crypto.getRandomValues(new Uint8Array(length + 4));
      for (const b of bytes) {
        if (b >= UNBIASED_LIMIT) continue;
        code += BASE62[b % BASE62.length];
        if (code.length === length) break;
      }
    }
    if (!isReservedCode(code)) return code;
  }
}
