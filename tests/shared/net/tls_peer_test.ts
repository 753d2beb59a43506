/** The TLS peer read: the address rule first (never a private address), then the handshake. */
import assert from "node:assert/strict";
import { checkedAddress } from "../../../shared/net/safe_fetch.ts";
import { peerTls } from "../../../shared/net/tls_peer.ts";
import { guardedPolicy, openPolicy } from "../../support/policy.ts";
import { caSignedCertificate } from "../../support/tls.ts";

Deno.test("checkedAddress: literals and resolved names under the fetch's rule", async () => {
  const guarded = guardedPolicy({ "inner.test": "10.0.0.8", "outer.test": "93.184.216.34" });
  await assert.rejects(checkedAddress(new URL("https://127.0.0.1/"), guarded), /private/);
  await assert.rejects(checkedAddress(new URL("https://[::1]/"), guarded), /private/);
  await assert.rejects(checkedAddress(new URL("https://inner.test/"), guarded), /private/);
  await assert.rejects(checkedAddress(new URL("https://nowhere.test/"), guarded));
  assert.equal(
    (await checkedAddress(new URL("https://outer.test/"), guarded)).address,
    "93.184.216.34",
  );
  assert.equal(
    (await checkedAddress(new URL("https://127.0.0.1/"), openPolicy())).address,
    "127.0.0.1",
  );
});

Deno.test("peerTls: an IP literal is connected without SNI and its certificate read", async () => {
  const leaf = await caSignedCertificate(["peer.test"], 30);
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, ...leaf, signal: controller.signal, onListen() {} },
    () => new Response("ok"),
  );
  try {
    const url = new URL(`https://127.0.0.1:${server.addr.port}/`);
    const peer = await peerTls(url, openPolicy({ ca: leaf.ca }), AbortSignal.timeout(10_000));
    assert.equal(peer.address, "127.0.0.1");
    assert.equal(peer.certificate?.nameMismatch, null, "127.0.0.1 is among its names");
    assert.equal(peer.certificate?.issuer, "CN=Throwaway Test CA");
    assert.ok(peer.protocol === "TLSv1.3" || peer.protocol === "TLSv1.2");
  } finally {
    controller.abort();
    await server.finished;
  }
});
