/**
 * Signed links: a URL that lets whoever holds it do one operation (GET or PUT) on one key of one
 * bucket until a time, with a size and type limit for uploads. The grant's fields are in the
 * query and an HMAC-SHA256 (WebCrypto) over all of them, with the secret `OBJECT_SIGNING_KEY`,
 * is its `sig`: changing any field, or using the URL with the other method, breaks it. The
 * service enforces the limits itself as the bytes stream in, so every backend behaves alike
 * (R2 presigned PUTs carry no size limit; the filesystem has no presigning at all).
 */
import { ApiError } from "../../shared/contract/errors.ts";

/** What a signed link allows. */
export interface Grant {
  method: "GET" | "PUT";
  key: string;
  /** The public bucket instead of the private one. */
  public: boolean;
  /** Unix time (seconds) after which the link is refused. */
  expires: number;
  /** PUT: the most bytes the body may have. */
  maxBytes?: number;
  /** PUT: the Content-Type the upload must declare (and is stored with). */
  contentType?: string;
}

/** The secrets of signed links (both set, or the routes are absent). */
export interface SigningConfig {
  /** HMAC key from `OBJECT_SIGNING_KEY`. */
  key: CryptoKey;
  /** SHA-256 of `OBJECT_ADMIN_TOKEN`, compared in constant time. */
  adminTokenHash: Uint8Array;
}

/** The shortest `OBJECT_SIGNING_KEY` accepted (bytes of UTF-8): HMAC-SHA256's output size. */
export const MIN_SIGNING_KEY_BYTES = 32;
/** The shortest `OBJECT_ADMIN_TOKEN` accepted (bytes of UTF-8). */
export const MIN_ADMIN_TOKEN_BYTES = 16;

/** The longest a link may live: 7 days, as S3's presigned URLs. */
export const MAX_EXPIRES_IN = 7 * 24 * 3600;

/** Messages of the 401 and 403 answers. */
export const SIGNING_MESSAGES = {
  unauthorized: "Missing or invalid admin token",
  badSignature: "Invalid signature",
  expired: "Signed URL has expired",
  contentType: "Content-Type does not match the signed URL",
} as const;

const encoder = new TextEncoder();

/** Imports the secrets. */
export async function signingConfig(
  signingKey: string,
  adminToken: string,
): Promise<SigningConfig> {
  const key = await crypto.subtle.importKey(
    "raw",
    encoder.encode(signingKey),
    { name: "HMAC", hash: "SHA-256" },
    false,
    ["sign", "verify"],
  );
  return { key, adminTokenHash: await sha256(adminToken) };
}

async function sha256(text: string): Promise<Uint8Array> {
  return new Uint8Array(await crypto.subtle.digest("SHA-256", encoder.encode(text)));
}

/**
 * True when `Authorization: Bearer <token>` carries the admin token. Both sides are hashed
 * first so the comparison takes the same time whatever the length or the first wrong byte.
 */
export async function isAdmin(config: SigningConfig, header: string | undefined): Promise<boolean> {
  const m = header?.match(/^Bearer[ \t]+(\S+)\s*$/i);
  const given = await sha256(m ? m[1] : "");
  let diff = m ? 0 : 1;
  for (let i = 0; i < given.length; i++) diff |= given[i] ^ config.adminTokenHash[i];
  return diff === 0;
}

/** The signed text: every field, one per line, in a fixed order. */
function canonical(g: Grant): string {
  return [
    "v1",
    g.method,
    g.public ? "public" : "private",
    g.key,
    String(g.expires),
    g.maxBytes === undefined ? "" : String(g.maxBytes),
    g.contentType ?? "",
  ].join("\n");
}

function base64url(bytes: Uint8Array): string {
  return btoa(String.fromCharCode(...bytes)).replace(/\+/g, "-").replace(/\//g, "_")
    .replace(/=+$/, "");
}

function fromBase64url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]{43}$/.test(text)) return null;
  const bin = atob(text.replace(/-/g, "+").replace(/_/g, "/") + "=");
  return Uint8Array.from(bin, (ch) => ch.charCodeAt(0));
}

/** The query string of a link for `grant` (the path is `/object/signed`). */
export async function signGrant(config: SigningConfig, grant: Grant): Promise<string> {
  const mac = await crypto.subtle.sign("HMAC", config.key, encoder.encode(canonical(grant)));
  const q = new URLSearchParams({ key: grant.key });
  if (grant.public) q.set("public", "true");
  q.set("expires", String(grant.expires));
  if (grant.maxBytes !== undefined) q.set("maxBytes", String(grant.maxBytes));
  if (grant.contentType !== undefined) q.set("contentType", grant.contentType);
  q.set("sig", base64url(new Uint8Array(mac)));
  return q.toString();
}

/**
 * The grant a signed link's query carries for `method`, once its signature holds (WebCrypto's
 * verify compares in constant time) and it has not expired at `now` (ms): 403 INVALID_INPUT
 * otherwise. Any field added, changed or removed, or the other method, fails the signature.
 */
export async function verifyGrant(
  config: SigningConfig,
  method: "GET" | "PUT",
  query: URLSearchParams,
  now: number,
): Promise<Grant> {
  const deny = (message: string) => new ApiError("INVALID_INPUT", message, 403);
  const key = query.get("key");
  const expires = Number(query.get("expires"));
  const max = query.get("maxBytes");
  const sig = fromBase64url(query.get("sig") ?? "");
  const pub = query.get("public");
  if (
    !key || !sig || !Number.isSafeInteger(expires) || (pub !== null && pub !== "true") ||
    (max !== null && !/^\d{1,16}$/.test(max))
  ) throw deny(SIGNING_MESSAGES.badSignature);
  const grant: Grant = {
    method,
    key,
    public: pub === "true",
    expires,
    maxBytes: max === null ? undefined : Number(max),
    contentType: query.get("contentType") ?? undefined,
  };
  const ok = await crypto.subtle.verify(
    "HMAC",
    config.key,
    sig as BufferSource,
    encoder.encode(canonical(grant)),
  );
  if (!ok) throw deny(SIGNING_MESSAGES.badSignature);
  if (now >= expires * 1000) throw deny(SIGNING_MESSAGES.expired);
  return grant;
}
