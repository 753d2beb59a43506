/**
 * The TLS part of an inspection: a handshake with the final URL's host (shared/net/tls_peer.ts,
 * through the safe fetch's address rule), described with the days its certificate has left.
 */
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { peerTls } from "../../shared/net/tls_peer.ts";
import type { TlsInfo } from "./schema.ts";

/** Milliseconds in a day. */
const DAY = 86_400_000;

/**
 * The handshake's description for an https:// URL (null for http://). A failure is a report
 * with `error`, never an error of the inspection.
 */
export async function inspectTls(
  url: string,
  policy: FetchPolicy,
  signal: AbortSignal,
  now: number,
): Promise<TlsInfo | null> {
  const target = new URL(url);
  if (target.protocol !== "https:") return null;
  try {
    const peer = await peerTls(target, policy, signal);
    const c = peer.certificate;
    return {
      error: null,
      protocol: peer.protocol,
      cipher: peer.cipher,
      authorized: peer.authorized,
      authorizationError: peer.authorizationError,
      certificate: c
        ? {
          subject: c.subject,
          issuer: c.issuer,
          subjectAltNames: c.subjectAltNames,
          notBefore: c.notBefore,
          notAfter: c.notAfter,
          daysLeft: Math.floor((Date.parse(c.notAfter) - now) / DAY),
          selfSigned: c.selfSigned,
          serialNumber: c.serialNumber,
          fingerprint256: c.fingerprint256,
        }
        : null,
      nameMismatch: c?.nameMismatch ?? null,
    };
  } catch (err) {
    return {
      error: err instanceof Error ? err.message : String(err),
      protocol: null,
      cipher: null,
      authorized: false,
      authorizationError: null,
      nameMismatch: null,
      certificate: null,
    };
  }
}
