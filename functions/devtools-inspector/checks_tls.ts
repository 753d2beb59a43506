/**
 * Rows of the security table about the TLS connection, from the handshake with the final host:
 * the certificate (expired or expiring within {@link EXPIRY_WARNING_DAYS} days, not for this
 * name, self-signed, not trusted) and the protocol (below TLS 1.2). This service's own rows, as
 * SSL Labs reports them: they fail with evidence but never move the Observatory's score.
 */
import { defineCheck, fail, pass } from "./check_definition.ts";

/** A certificate with fewer days left than this fails. */
export const EXPIRY_WARNING_DAYS = 14;

/** Certificate problems, the worst first (all weigh 0: this order picks the result). */
const CERT_ORDER = [
  "tls-handshake-failed",
  "tls-certificate-expired",
  "tls-certificate-name-mismatch",
  "tls-certificate-self-signed",
  "tls-certificate-untrusted",
  "tls-certificate-expiring-soon",
] as const;

/** The certificate row. */
export const tlsCertificateCheck = defineCheck({
  id: "tls-certificate",
  title: "TLS certificate",
  description: "A trusted certificate for this host name, valid for more than 14 days",
  outcomes: {
    "tls-certificate-valid": pass(0, "The certificate is trusted, names this host and is valid"),
    "tls-not-https": pass(0, "Not an HTTPS page: no certificate (see the redirection row)"),
    "tls-handshake-failed": fail(
      0,
      "No TLS handshake could be completed with the host",
      "Check that the server answers TLS 1.2 or 1.3 on its HTTPS port.",
    ),
    "tls-certificate-expired": fail(
      0,
      "The certificate has expired",
      "Renew the certificate, and automate renewal (ACME, e.g. Let's Encrypt).",
    ),
    "tls-certificate-name-mismatch": fail(
      0,
      "The certificate does not name this host",
      "Serve a certificate whose subject alternative names include this host name.",
    ),
    "tls-certificate-self-signed": fail(
      0,
      "The certificate is self-signed: browsers do not trust it",
      "Use a certificate from a public certificate authority.",
    ),
    "tls-certificate-untrusted": fail(
      0,
      "The certificate chain does not verify against trusted roots",
      "Serve the full chain (leaf and intermediates) from a public certificate authority.",
    ),
    "tls-certificate-expiring-soon": fail(
      0,
      `The certificate expires within ${EXPIRY_WARNING_DAYS} days`,
      "Renew the certificate now, and automate renewal.",
    ),
  },
  evaluate(ctx) {
    const tls = ctx.tls;
    if (!tls) return "tls-not-https";
    if (tls.error || !tls.certificate) {
      return { result: "tls-handshake-failed", evidence: [tls.error ?? "no certificate"] };
    }
    const cert = tls.certificate;
    const found = new Map<(typeof CERT_ORDER)[number], string>();
    if (cert.daysLeft < 0) found.set("tls-certificate-expired", `notAfter ${cert.notAfter}`);
    if (tls.nameMismatch) found.set("tls-certificate-name-mismatch", tls.nameMismatch);
    if (cert.selfSigned) found.set("tls-certificate-self-signed", `issuer ${cert.issuer}`);
    if (!tls.authorized && tls.authorizationError) {
      found.set("tls-certificate-untrusted", tls.authorizationError);
    }
    if (cert.daysLeft >= 0 && cert.daysLeft < EXPIRY_WARNING_DAYS) {
      found.set(
        "tls-certificate-expiring-soon",
        `${cert.daysLeft} days left (notAfter ${cert.notAfter})`,
      );
    }
    const result = CERT_ORDER.find((k) => found.has(k));
    if (!result) return "tls-certificate-valid";
    return { result, evidence: CERT_ORDER.filter((k) => found.has(k)).map((k) => found.get(k)!) };
  },
});

/** Protocols below TLS 1.2 (deprecated by RFC 8996). */
const OBSOLETE = new Set(["SSLv2", "SSLv3", "TLSv1", "TLSv1.1"]);

/** The protocol row. */
export const tlsVersionCheck = defineCheck({
  id: "tls-version",
  title: "TLS protocol version",
  description: "The connection uses TLS 1.2 or 1.3",
  outcomes: {
    "tls-version-1.3": pass(0, "TLS 1.3 negotiated"),
    "tls-version-1.2": pass(0, "TLS 1.2 negotiated", "Enable TLS 1.3 as well."),
    "tls-version-not-https": pass(0, "Not an HTTPS page: no TLS"),
    "tls-version-obsolete": fail(
      0,
      "A protocol older than TLS 1.2 was negotiated",
      "Disable SSL 3, TLS 1.0 and TLS 1.1 (RFC 8996); offer TLS 1.2 and 1.3.",
    ),
    "tls-version-unknown": fail(
      0,
      "No TLS 1.2 or 1.3 handshake could be completed",
      "Check that the server answers TLS 1.2 or 1.3 on its HTTPS port.",
    ),
  },
  evaluate(ctx) {
    const tls = ctx.tls;
    if (!tls) return "tls-version-not-https";
    const evidence = [tls.protocol ?? tls.error ?? "protocol not reported"];
    if (tls.protocol === "TLSv1.3") return { result: "tls-version-1.3", evidence };
    if (tls.protocol === "TLSv1.2") return { result: "tls-version-1.2", evidence };
    if (tls.protocol && OBSOLETE.has(tls.protocol)) {
      return { result: "tls-version-obsolete", evidence };
    }
    return { result: "tls-version-unknown", evidence };
  },
});
