/** The request's origin from its Host header (shared/contract/request_origin.ts). */
import assert from "node:assert/strict";
import { isApiError } from "../../../shared/contract/errors.ts";
import { isValidHost, requestOrigin } from "../../../shared/contract/request_origin.ts";

/** Host values the runtime turns into an unparseable URL or one on another host. */
const BAD_HOSTS = ["a b", 'a"><x', "a:99999", "[::1", "a%2f", "a?b", "a#b", "@x"];

Deno.test("host names, addresses and ports are valid Host values; the rest are not", () => {
  for (const host of ["sho.rt", "example.com:8080", "127.0.0.1:8007", "[::1]:80", "localhost"]) {
    assert.ok(isValidHost(host), host);
  }
  for (const host of [...BAD_HOSTS, "a/b", "a:0", "[1::2::3]", "a..b", `${"a".repeat(64)}.x`]) {
    assert.ok(!isValidHost(host), host);
  }
});

Deno.test("requestOrigin: from the Host header, else the URL; a bad one is 400 INVALID_INPUT", () => {
  const req = (host?: string) =>
    new Request("http://in.process/x", { headers: host ? { host } : {} });
  assert.equal(requestOrigin(req("Sho.rt:8080")), "http://sho.rt:8080");
  assert.equal(requestOrigin(req()), "http://in.process");
  for (const host of BAD_HOSTS) {
    assert.throws(() => requestOrigin(req(host)), (e) => {
      assert.ok(isApiError(e));
      assert.equal(e.code, "INVALID_INPUT");
      assert.equal(e.status, 400);
      return true;
    }, host);
  }
});
