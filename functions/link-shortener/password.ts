/**
 * Link passwords: stored as a PBKDF2-SHA-256 record (WebCrypto; the derivation runs off the
 * event loop) with a random salt per link, never in clear. The record names its own iteration
 * count, so a later raise of {@link PBKDF2_ITERATIONS} keeps older links verifiable.
 */

/** Iterations of a new hash (at least 100,000; each derivation costs tens of ms on purpose). */
export const PBKDF2_ITERATIONS = 210_000;

/** Longest accepted password, in characters. */
export const MAX_PASSWORD_LENGTH = 256;

const SALT_BYTES = 16;
const KEY_BITS = 256;
const PREFIX = "pbkdf2-sha256";

function toBase64(bytes: Uint8Array): string {
  let bin = "";
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin);
}

function fromBase64(text: string): Uint8Array<ArrayBuffer> {
  return Uint8Array.from(atob(text), (c) => c.charCodeAt(0));
}

async function derive(
  password: string,
  salt: Uint8Array<ArrayBuffer>,
  iterations: number,
): Promise<Uint8Array> {
  const key = await crypto.subtle.importKey(
    "raw",
    new TextEncoder().encode(password),
    "PBKDF2",
    false,
    ["deriveBits"],
  );
  const bits = await crypto.subtle.deriveBits(
    { name: "PBKDF2", hash: "SHA-256", salt, iterations },
    key,
    KEY_BITS,
  );
  return new Uint8Array(bits);
}

/** The stored form of `password`: `pbkdf2-sha256$<iterations>$<salt>$<hash>` (base64). */
export async function hashPassword(
  password: string,
  iterations: number = PBKDF2_ITERATIONS,
): Promise<string> {
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations);
  return [PREFIX, iterations, toBase64(salt), toBase64(hash)].join("$");
}

/** True when `password` is the one `record` was made from (compared in constant time). */
export async function verifyPassword(password: string, record: string): Promise<boolean> {
  const [prefix, iterations, salt, hash] = record.split("$");
  const n = Number(iterations);
  if (prefix !== PREFIX || !Number.isInteger(n) || n < 1 || !salt || !hash) return false;
  const expected = fromBase64(hash);
  const actual = await derive(password, fromBase64(salt), n);
  if (actual.length !== expected.length) return false;
  let diff = 0;
  for (let i = 0; i < actual.length; i++) diff |= actual[i] ^ expected[i];
  return diff === 0;
}
