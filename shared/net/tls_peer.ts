/**
 * What a server presents in a TLS handshake: its certificate, the protocol and cipher agreed.
 * `node:tls` `connect` (Deno implements `getPeerCertificate`, `getProtocol`, `getCipher`) to the
 * address the safe fetch's rule accepts ({@link checkedAddress}: never a private one, and the
 * connection goes to the address checked, not to the name again), with `servername` set to the
 * host for SNI. The certificate is read, not trusted: verification failures are reported
 * (`authorizationError`), not thrown, so an expired or self-signed certificate can be described.
 * Nothing is sent after the handshake.
 */
import type { PeerCertificate, TLSSocket } from "node:tls";
import { onFirstUse } from "../contract/lazy.ts";
import { isIpLiteral, normaliseHost } from "./address.ts";
import { checkedAddress, type FetchPolicy } from "./safe_fetch.ts";

/** The certificate as the handshake gave it. */
export interface PeerCertificateInfo {
  /** Subject and issuer as `CN=…, O=…`. */
  subject: string;
  issuer: string;
  /** `DNS:…` and `IP Address:…` entries. */
  subjectAltNames: string[];
  /** Validity, ISO 8601. */
  notBefore: string;
  notAfter: string;
  serialNumber: string;
  fingerprint256: string;
  /** Subject and issuer are the same name (and no other issuer came with it). */
  selfSigned: boolean;
  /** Why the host does not match it (`checkServerIdentity`), or null when it does. */
  nameMismatch: string | null;
}

/** The handshake's outcome. */
export interface PeerTls {
  /** `TLSv1.3`, `TLSv1.2`, …; null when the socket does not say. */
  protocol: string | null;
  /** The cipher suite's standard name. */
  cipher: string | null;
  /** The chain verifies against the trusted roots (the policy's `ca` in tests). */
  authorized: boolean;
  /** Why it does not (`CERT_HAS_EXPIRED`, `DEPTH_ZERO_SELF_SIGNED_CERT`…), or null. */
  authorizationError: string | null;
  certificate: PeerCertificateInfo | null;
  /** The address connected to. */
  address: string;
}

const loadTls = onFirstUse(() => import("node:tls"));

/** `{CN: "a", O: "b"}` as `CN=a, O=b`. */
function distinguishedName(name: Record<string, string | string[]> | undefined): string {
  if (!name) return "";
  return Object.entries(name)
    .map(([k, v]) => `${k}=${Array.isArray(v) ? v.join("+") : v}`)
    .join(", ");
}

function iso(date: string | undefined): string {
  const t = Date.parse(date ?? "");
  return Number.isNaN(t) ? "" : new Date(t).toISOString();
}

/**
 * Handshakes with `url`'s host (https only) within `signal` and describes what it presented.
 * Rejects with the reason when the address is refused, the connection fails or times out.
 */
export async function peerTls(
  url: URL,
  policy: FetchPolicy,
  signal: AbortSignal,
): Promise<PeerTls> {
  const tls = await loadTls();
  const { address } = await checkedAddress(url, policy);
  signal.throwIfAborted();
  const host = normaliseHost(url.hostname);
  const port = policy.ports?.get(url.origin) ?? (Number(url.port) || 443);
  const socket: TLSSocket = tls.connect({
    host: address,
    port,
    ...(isIpLiteral(host) ? {} : { servername: host }),
    rejectUnauthorized: false,
    ...(policy.ca ? { ca: policy.ca } : {}),
  });
  try {
    await new Promise<void>((resolve, reject) => {
      const abort = () => reject(new Error(`TLS handshake with ${host} timed out`));
      if (signal.aborted) return abort();
      signal.addEventListener("abort", abort, { once: true });
      socket.once("secureConnect", () => {
        signal.removeEventListener("abort", abort);
        resolve();
      });
      socket.once("error", (err) => {
        signal.removeEventListener("abort", abort);
        reject(new Error(`TLS handshake with ${host} failed: ${err.message}`));
      });
    });
    const cert = socket.getPeerCertificate(true) as PeerCertificate & {
      issuerCertificate?: PeerCertificate;
    };
    const present = cert && Object.keys(cert).length > 0;
    const subject = present ? distinguishedName(cert.subject as never) : "";
    const issuer = present ? distinguishedName(cert.issuer as never) : "";
    const error = socket.authorizationError;
    return {
      protocol: socket.getProtocol() ?? null,
      cipher: socket.getCipher()?.standardName ?? socket.getCipher()?.name ?? null,
      authorized: socket.authorized,
      authorizationError: error ? String((error as Error).message ?? error) : null,
      address,
      certificate: present
        ? {
          subject,
          issuer,
          subjectAltNames: (cert.subjectaltname ?? "").split(/,\s*/).filter(Boolean),
          notBefore: iso(cert.valid_from),
          notAfter: iso(cert.valid_to),
          serialNumber: cert.serialNumber ?? "",
          fingerprint256: cert.fingerprint256 ?? "",
          selfSigned: subject === issuer,
          nameMismatch: tls.checkServerIdentity(host, cert)?.message ?? null,
        }
        : null,
    };
  } finally {
    socket.destroy();
  }
}
