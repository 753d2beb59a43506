/**
 * Manage tokens: the secret that lets whoever created a link change or delete it (there are
 * no accounts). The token is shown once, in the answer of `POST /shorten`; only its SHA-256
 * is stored, so a leaked database does not hand out control of the links.
 */

/** Random bytes in a token (256 bits). */
const TOKEN_BYTES = 32;

/** The message of every refused management request. */
export const MANAGE_TOKEN_MESSAGE = "Missing or invalid manage token";

function base64url(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replaceAll("+", "-").replaceAll("/", "_").replace(/=+$/, "");
}

/** A new token from the CSPRNG (43 base64url characters). */
export function newManageToken(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(TOKEN_BYTES)));
}

/** The stored form of a token: SHA-256, hex. */
export async function hashManageToken(token: string): Promise<string> {
  const digest = await crypto.subtle.digest("SHA-256", new TextEncoder().encode(token));
  return Array.from(new Uint8Array(digest), (b) => b.toString(16).padStart(2, "0")).join("");
}

/** The token of an `Authorization: Bearer <token>` header, or null. */
export function bearerToken(header: string | undefined | null): string | null {
  const m = /^Bearer[ \t]+([A-Za-z0-9_-]{1,256})[ \t]*$/i.exec(header ?? "");
  return m ? m[1] : null;
}

/** Equal strings, compared in time independent of where they differ. */
function sameText(a: string, b: string): boolean {
  if (a.length !== b.length) return false;
  let diff = 0;
  for (let i = 0; i < a.length; i++) diff |= a.charCodeAt(i) ^ b.charCodeAt(i);
  return diff === 0;
}

/** True when `token` is the one whose hash is `storedHash` (null: the link has none). */
export async function tokenMatches(token: string | null, storedHash: string | null) {
  if (token === null || storedHash === null) return false;
  return sameText(await hashManageToken(token), storedHash);
}
