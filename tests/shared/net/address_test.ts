import assert from "node:assert/strict";
import ipaddr from "ipaddr.js";
import { isIpLiteral, isPublicAddress, isPublicHost } from "../../../shared/net/address.ts";

const REFUSED = [
  "127.0.0.1",
  "[::1]",
  "0.0.0.0",
  "10.0.0.1",
  "172.16.0.1",
  "192.168.1.1",
  "169.254.169.254",
  "100.64.0.1",
  "[::ffff:127.0.0.1]",
  "[::ffff:7f00:1]",
  "[fd00::1]",
  "[fe80::1]",
  "224.0.0.1",
  "2130706433",
  "0x7f000001",
  "0177.0.0.1",
  "localhost",
  "a.localhost",
  "LOCALHOST.",
  "metadata.google.internal",
  "[::]",
  "[64:ff9b::7f00:1]",
  "[::127.0.0.1]",
  "[::a9fe:a9fe]",
  "[::808:808]",
  "255.255.255.255",
];

Deno.test("address classifier refuses every non-public host, as a URL host and raw", () => {
  for (const host of REFUSED) {
    const fromUrl = new URL(`http://${host}/`).hostname;
    assert.equal(isPublicHost(fromUrl), false, `${host} (URL host ${fromUrl}) must be refused`);
    assert.equal(isPublicHost(host), false, `${host} (raw) must be refused`);
  }
});

Deno.test("address classifier accepts public addresses and names", () => {
  for (const host of ["93.184.215.14", "[2606:2800:21f:cb07::1]", "example.com", "8.8.8.8"]) {
    assert.equal(isPublicHost(new URL(`http://${host}/`).hostname), true, host);
  }
  assert.equal(isPublicAddress("93.184.215.14"), true);
  assert.equal(isPublicAddress("2606:2800:21f:cb07::1"), true);
});

Deno.test("isPublicAddress refuses what is not an address at all", () => {
  assert.equal(isPublicAddress("example.com"), false);
  assert.equal(isPublicAddress(""), false);
});

Deno.test("isIpLiteral: every form ipaddr.js accepts, and names told without it, alike", () => {
  const literals = [
    "127.0.0.1",
    "8.8.8.8",
    "0x7f.0.0.1",
    "0177.0.0.1",
    "2130706433",
    "0x7f000001",
    "[::1]",
    "::ffff:127.0.0.1",
    "2001:db8::1",
    "fe80::1%eth0",
    "1.2.3.4.",
  ];
  const names = ["example.com", "cdn.other.example", "cafe.bad", "a", "xn--bcher-kva.example", ""];
  for (const host of literals) assert.equal(isIpLiteral(host), true, host);
  for (const host of names) assert.equal(isIpLiteral(host), false, host);
  // The shortcut only skips what ipaddr.js would refuse.
  for (const host of [...literals, ...names, "1.2.3", "0x", "x.y", "12345678901"]) {
    const h = host.toLowerCase().replace(/^\[(.*)\]$/, "$1").replace(/\.$/, "");
    assert.equal(isIpLiteral(host), ipaddr.isValid(h), host);
  }
});
