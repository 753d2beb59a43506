/** shared/net/hosts.ts: the registrable-domain heuristic and the third-party test. */
import assert from "node:assert/strict";
import { isThirdParty, registrableDomain } from "../../../shared/net/hosts.ts";

Deno.test("registrable domain: last two labels, three under a multi-part suffix", () => {
  const cases: [string, string][] = [
    ["example.com", "example.com"],
    ["www.example.com", "example.com"],
    ["a.b.cdn.example.com", "example.com"],
    ["www.bbc.co.uk", "bbc.co.uk"],
    ["shop.example.com.au", "example.com.au"],
    ["alice.github.io", "alice.github.io"],
    ["WWW.Example.COM.", "example.com"],
    ["127.0.0.1", "127.0.0.1"],
    ["[::1]", "::1"],
    ["localhost", "localhost"],
  ];
  for (const [host, domain] of cases) assert.equal(registrableDomain(host), domain, host);
});

Deno.test("third party: another registrable domain", () => {
  assert.equal(isThirdParty("static.example.com", "www.example.com"), false);
  assert.equal(isThirdParty("cdn.jsdelivr.net", "www.example.com"), true);
  assert.equal(isThirdParty("news.bbc.co.uk", "www.bbc.co.uk"), false);
  assert.equal(isThirdParty("other.co.uk", "www.bbc.co.uk"), true);
  assert.equal(isThirdParty("bob.github.io", "alice.github.io"), true);
  assert.equal(isThirdParty("127.0.0.1", "127.0.0.1"), false);
  assert.equal(isThirdParty("127.0.0.2", "127.0.0.1"), true);
});
