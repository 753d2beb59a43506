/**
 * The TLS handshake report against real TLS servers on loopback (certificates from a throwaway
 * CA, and self-signed), through the safe fetch's address rule; and the two TLS rows.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { inspectTls } from "../../functions/devtools-inspector/tls.ts";
import { InspectResultSchema, type TlsInfo } from "../../functions/devtools-inspector/schema.ts";
import { guardedPolicy, openPolicy } from "../support/policy.ts";
import { caSignedCertificate, testCertificate } from "../support/tls.ts";
import { audit } from "./audit_helper.ts";

const DAY = 86_400_000;

/** A TLS server on loopback for `cert`, counting the TCP connections it accepts. */
function tlsServer(cert: { cert: string; key: string }) {
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, ...cert, signal: controller.signal, onListen() {} },
    () => new Response("ok"),
  );
  return {
    port: server.addr.port,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

/** A policy that resolves `names` to loopback and connects `https://<name>` to `port`. */
function policyFor(names: string[], port: number, ca: string) {
  return openPolicy({
    ca,
    resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
    ports: new Map(names.map((n) => [`https://${n}`, port])),
  });
}

Deno.test("tls: a CA-signed certificate: names, dates, protocol, cipher, trusted", async () => {
  const leaf = await caSignedCertificate(["site.test"], 90);
  const server = tlsServer(leaf);
  try {
    const now = Date.now();
    const tls = await inspectTls(
      "https://site.test/page",
      policyFor(["site.test"], server.port, leaf.ca),
      AbortSignal.timeout(10_000),
      now,
    );
    assert.ok(tls);
    assert.equal(tls.error, null);
    assert.equal(tls.protocol, "TLSv1.3");
    assert.match(tls.cipher ?? "", /^TLS_/);
    assert.equal(tls.authorized, true, String(tls.authorizationError));
    assert.equal(tls.nameMismatch, null);
    const cert = tls.certificate!;
    assert.equal(cert.subject, "CN=site.test");
    assert.equal(cert.issuer, "CN=Throwaway Test CA");
    assert.deepEqual(cert.subjectAltNames, ["DNS:site.test", "IP Address:127.0.0.1"]);
    assert.equal(cert.selfSigned, false);
    assert.equal(cert.daysLeft, Math.floor((Date.parse(cert.notAfter) - now) / DAY));
    assert.ok(cert.daysLeft >= 88 && cert.daysLeft <= 90, String(cert.daysLeft));
    assert.match(cert.fingerprint256, /^([0-9A-F]{2}:){31}[0-9A-F]{2}$/);
    const rows = await tlsRows(tls);
    assert.deepEqual(rows, {
      "tls-certificate": "tls-certificate-valid",
      "tls-version": "tls-version-1.3",
    });
  } finally {
    await server.close();
  }
});

Deno.test("tls: another name on the same certificate is a name mismatch", async () => {
  const leaf = await caSignedCertificate(["site.test"], 90);
  const server = tlsServer(leaf);
  try {
    const tls = await inspectTls(
      "https://other.test/",
      policyFor(["other.test"], server.port, leaf.ca),
      AbortSignal.timeout(10_000),
      Date.now(),
    );
    assert.match(tls!.nameMismatch ?? "", /other\.test/);
    const row = (await audit({ url: "https://other.test/", tls })).checks
      .find((c) => c.id === "tls-certificate")!;
    assert.equal(row.result, "tls-certificate-name-mismatch");
    assert.equal(row.pass, false);
    assert.equal(row.scoreModifier, 0);
  } finally {
    await server.close();
  }
});

Deno.test("tls: a self-signed certificate, and the clock past or near its end", async () => {
  const own = await testCertificate(["self.test"]);
  const server = tlsServer(own);
  try {
    const policy = policyFor(["self.test"], server.port, own.cert);
    const tls = await inspectTls("https://self.test/", policy, AbortSignal.timeout(10_000), 0);
    const cert = tls!.certificate!;
    assert.equal(cert.selfSigned, true);
    assert.equal(cert.subject, cert.issuer);
    const at = async (now: number) => {
      const t = await inspectTls("https://self.test/", policy, AbortSignal.timeout(10_000), now);
      const row = (await audit({ url: "https://self.test/", tls: t })).checks
        .find((c) => c.id === "tls-certificate")!;
      return row;
    };
    const end = Date.parse(cert.notAfter);
    const expired = await at(end + DAY);
    assert.equal(expired.result, "tls-certificate-expired");
    assert.ok(expired.evidence.some((e) => e.startsWith("issuer CN=self.test")), "all problems");
    const soon = await at(end - 5 * DAY);
    assert.equal(soon.result, "tls-certificate-self-signed", "self-signed outranks expiring");
    assert.ok(soon.evidence.includes(`5 days left (notAfter ${cert.notAfter})`));
  } finally {
    await server.close();
  }
});

Deno.test("tls: expiring within 14 days fails, 14 days left passes (a CA-signed leaf)", async () => {
  const leaf = await caSignedCertificate(["site.test"], 90);
  const server = tlsServer(leaf);
  try {
    const policy = policyFor(["site.test"], server.port, leaf.ca);
    const first = await inspectTls("https://site.test/", policy, AbortSignal.timeout(10_000), 0);
    const end = Date.parse(first!.certificate!.notAfter);
    const resultAt = async (now: number) => {
      const tls = await inspectTls("https://site.test/", policy, AbortSignal.timeout(10_000), now);
      return (await tlsRows(tls))["tls-certificate"];
    };
    assert.equal(await resultAt(end - 13 * DAY - 1), "tls-certificate-expiring-soon");
    assert.equal(await resultAt(end - 14 * DAY), "tls-certificate-valid");
  } finally {
    await server.close();
  }
});

Deno.test("tls: a name resolving to a private address is never connected to", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let accepted = 0;
  (async () => {
    for await (const conn of listener) {
      accepted++;
      conn.close();
    }
  })();
  try {
    const policy = guardedPolicy({ "inner.test": "127.0.0.1" }, [], {
      ports: new Map([["https://inner.test", listener.addr.port]]),
    });
    const tls = await inspectTls("https://inner.test/", policy, AbortSignal.timeout(5_000), 0);
    assert.match(tls!.error ?? "", /private or reserved address/);
    assert.equal(tls!.certificate, null);
    assert.equal(accepted, 0);
    const rows = await tlsRows(tls);
    assert.deepEqual(rows, {
      "tls-certificate": "tls-handshake-failed",
      "tls-version": "tls-version-unknown",
    });
  } finally {
    listener.close();
  }
});

Deno.test("tls: a server that never answers the handshake is cut off by the deadline", async () => {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of listener) held.push(conn); // accepts, says nothing
  })();
  try {
    const policy = openPolicy({ ports: new Map([["https://mute.test", listener.addr.port]]) });
    const tls = await inspectTls(
      "https://mute.test/",
      { ...policy, resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]) },
      AbortSignal.timeout(300),
      0,
    );
    assert.match(tls!.error ?? "", /timed out/);
  } finally {
    listener.close();
    for (const c of held) c.close();
  }
});

Deno.test("tls: http:// has no TLS report; obsolete protocols fail the version row", async () => {
  assert.equal(
    await inspectTls("http://site.test/", openPolicy(), AbortSignal.timeout(1000), 0),
    null,
  );
  assert.deepEqual(await tlsRows(null, "http://shop.example/"), {
    "tls-certificate": "tls-not-https",
    "tls-version": "tls-version-not-https",
  });
  const old: TlsInfo = {
    error: null,
    protocol: "TLSv1.1",
    cipher: "ECDHE-RSA-AES128-SHA",
    authorized: true,
    authorizationError: null,
    nameMismatch: null,
    certificate: {
      subject: "CN=shop.example",
      issuer: "CN=CA",
      subjectAltNames: ["DNS:shop.example"],
      notBefore: "2026-01-01T00:00:00.000Z",
      notAfter: "2027-01-01T00:00:00.000Z",
      daysLeft: 200,
      selfSigned: false,
      serialNumber: "01",
      fingerprint256: "AA",
    },
  };
  assert.equal((await tlsRows(old))["tls-version"], "tls-version-obsolete");
  assert.equal((await tlsRows({ ...old, protocol: "TLSv1.2" }))["tls-version"], "tls-version-1.2");
});

/** The TLS rows' results for a handshake report. */
async function tlsRows(tls: TlsInfo | null, url = "https://shop.example/") {
  const report = await audit({ url, tls });
  const row = (id: string) => report.checks.find((c) => c.id === id)!.result;
  return { "tls-certificate": row("tls-certificate"), "tls-version": row("tls-version") };
}

Deno.test("tls: /inspect of an https:// page reports the handshake and its rows (injected clock)", async () => {
  const leaf = await caSignedCertificate(["shop.test"], 90);
  const server = tlsServer(leaf);
  try {
    const policy = policyFor(["shop.test"], server.port, leaf.ca);
    const probe = await inspectTls("https://shop.test/", policy, AbortSignal.timeout(10_000), 0);
    const end = Date.parse(probe!.certificate!.notAfter);
    const app = createApp({ fetchPolicy: policy, now: () => end - 3 * DAY }, { log: () => {} });
    const res = await app.request(`/inspect?url=${encodeURIComponent("https://shop.test/")}`);
    assert.equal(res.status, 200);
    const body = await res.json();
    assert.deepEqual(InspectResultSchema.parse(body), body);
    assert.equal(body.tls.protocol, "TLSv1.3");
    assert.equal(body.tls.authorized, true);
    assert.equal(body.tls.certificate.subject, "CN=shop.test");
    assert.equal(body.tls.certificate.daysLeft, 3);
    const cert = body.security.checks.find((c: { id: string }) => c.id === "tls-certificate");
    assert.equal(cert.result, "tls-certificate-expiring-soon");
    const doc = await (await app.request("/openapi.json")).json();
    assert.ok(doc.components.schemas.InspectTls);
  } finally {
    await server.close();
  }
});
