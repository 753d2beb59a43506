import assert from "node:assert/strict";
import { ApiError } from "../../../shared/contract/errors.ts";
import { Env } from "../../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../../shared/net/fetch_policy.ts";
import {
  type FetchPolicy,
  PRIVATE_HOST_MESSAGE,
  safeFetch,
} from "../../../shared/net/safe_fetch.ts";
import { endedByDeadline } from "../../support/deadline_race.ts";
import { startFixtureServer } from "../../support/fixture_server.ts";
import { guardedPolicy, openPolicy } from "../../support/policy.ts";
import { startTwinServers } from "../../support/tls.ts";

/** Runs `fn` and returns the ApiError it must throw. */
async function failure(fn: () => Promise<unknown>): Promise<ApiError> {
  try {
    await fn();
  } catch (err) {
    assert.ok(err instanceof ApiError, `expected ApiError, got ${err}`);
    return err;
  }
  assert.fail("expected the fetch to fail");
}

Deno.test("every loopback form is refused before any connection (400, zero hits)", async () => {
  const fixture = startFixtureServer();
  try {
    const policy = guardedPolicy();
    const hosts = [
      "127.0.0.1",
      "[::1]",
      "2130706433",
      "0x7f000001",
      "0177.0.0.1",
      "127.1",
      "[::ffff:127.0.0.1]",
      "[::ffff:7f00:1]",
      "localhost",
      "a.localhost",
      "0.0.0.0",
    ];
    for (const host of hosts) {
      const err = await failure(() =>
        safeFetch(`http://${host}:${fixture.port}/shared/hello.html`, policy)
      );
      assert.equal(err.code, "INVALID_URL", host);
      assert.equal(err.status, 400, host);
    }
    assert.equal(fixture.hits(), 0);
  } finally {
    await fixture.close();
  }
});

Deno.test("a name that resolves to loopback is refused at connect time (502, zero hits)", async () => {
  const fixture = startFixtureServer();
  try {
    for (const answer of ["127.0.0.1", "10.0.0.7"]) {
      const policy = guardedPolicy({ "public.test": answer });
      const err = await failure(() =>
        safeFetch(`http://public.test:${fixture.port}/shared/hello.html`, policy)
      );
      assert.equal(err.code, "FETCH_ERROR");
      assert.equal(err.status, 502);
      assert.match(err.message, /private or reserved/);
    }
    assert.equal(fixture.hits(), 0);
  } finally {
    await fixture.close();
  }
});

Deno.test("an answer mixing public and private addresses is refused whole", async () => {
  const fixture = startFixtureServer();
  try {
    const policy = guardedPolicy({});
    policy.resolve = () =>
      Promise.resolve([{ address: "93.184.215.14", family: 4 }, {
        address: "127.0.0.1",
        family: 4,
      }]);
    const err = await failure(() => safeFetch(`http://mixed.test:${fixture.port}/`, policy));
    assert.equal(err.code, "FETCH_ERROR");
    assert.equal(fixture.hits(), 0);
  } finally {
    await fixture.close();
  }
});

Deno.test("a redirect from an allowed hop to a private server is refused (zero hits there)", async () => {
  const first = startFixtureServer();
  const second = startFixtureServer();
  try {
    const policy = guardedPolicy({ "evil.test": "127.0.0.1" }, [first.origin]);
    for (const target of [second.url("/shared/hello.html"), `http://evil.test:${second.port}/`]) {
      const url = first.url(`/redirect?to=${encodeURIComponent(target)}`);
      const err = await failure(() => safeFetch(url, policy));
      assert.equal(err.code, "FETCH_ERROR", target);
    }
    assert.equal(first.hits("/redirect"), 2);
    assert.equal(second.hits(), 0);
  } finally {
    await first.close();
    await second.close();
  }
});

Deno.test("the fetch result: final URL, redirect chain, timings, headers, text", async () => {
  const fixture = startFixtureServer();
  try {
    const target = fixture.url("/shared/hello.html");
    const start = fixture.url(`/redirect?status=301&to=${encodeURIComponent(target)}`);
    const res = await safeFetch(start, openPolicy());
    assert.equal(res.url, start);
    assert.equal(res.finalUrl, target);
    assert.equal(res.status, 200);
    assert.deepEqual(
      res.redirects.map(({ url, status, location }) => ({ url, status, location })),
      [{ url: start, status: 301, location: target }],
    );
    assert.equal(res.redirects[0].headers.get("location"), target, "each hop keeps its headers");
    assert.equal(res.contentType, "text/html");
    assert.equal(res.charset, "utf-8");
    assert.match(res.text, /<title>Hello<\/title>/);
    assert.equal(res.remoteAddress, "127.0.0.1");
    assert.equal(res.httpVersion, "1.1");
    assert.ok(res.timings.total >= res.timings.ttfb && res.timings.ttfb >= 0);
    assert.equal(res.timings.tls, null, "no TLS on http");
  } finally {
    await fixture.close();
  }
});

Deno.test("redirects: at most 5 are followed; other schemes are refused", async () => {
  const fixture = startFixtureServer();
  try {
    let url = fixture.url("/shared/hello.html");
    for (let i = 0; i < 5; i++) url = fixture.url(`/redirect?to=${encodeURIComponent(url)}`);
    assert.equal((await safeFetch(url, openPolicy())).redirects.length, 5);
    const six = fixture.url(`/redirect?to=${encodeURIComponent(url)}`);
    assert.match((await failure(() => safeFetch(six, openPolicy()))).message, /Too many redirects/);
    const ftp = fixture.url(`/redirect?to=${encodeURIComponent("file:///etc/passwd")}`);
    assert.match((await failure(() => safeFetch(ftp, openPolicy()))).message, /unsupported scheme/);
  } finally {
    await fixture.close();
  }
});

Deno.test("an upstream error status is a result, not a failure", async () => {
  const fixture = startFixtureServer();
  try {
    const res = await safeFetch(fixture.url("/missing.html"), openPolicy());
    assert.equal(res.status, 404);
  } finally {
    await fixture.close();
  }
});

Deno.test("total timeout, byte cap and connection refused fail with FETCH_ERROR", async () => {
  const fixture = startFixtureServer();
  try {
    // Ended by the timeout, before the server's answer at 5 s.
    const slow = await failure(() =>
      endedByDeadline(
        safeFetch(fixture.url("/stall?ms=5000"), openPolicy({ timeoutMs: 300 })),
        300,
        5000,
      )
    );
    assert.match(slow.message, /Timed out after 300 ms/);
    const body = await failure(() =>
      safeFetch(fixture.url("/slow-body?ms=5000"), openPolicy({ timeoutMs: 300 }))
    );
    assert.match(body.message, /Timed out/);
    const huge = await failure(() =>
      safeFetch(fixture.url("/huge?bytes=2000000"), openPolicy({ maxBytes: 100_000 }))
    );
    assert.match(huge.message, /exceeds 100000 bytes/);
    const bomb = await failure(() =>
      safeFetch(fixture.url("/huge?bytes=2000000&encoding=gzip"), openPolicy({ maxBytes: 100_000 }))
    );
    assert.match(bomb.message, /exceeds/, "the cap applies after decompression");
    const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
    const port = (closed.addr as Deno.NetAddr).port;
    closed.close();
    const refused = await failure(() => safeFetch(`http://127.0.0.1:${port}/`, openPolicy()));
    assert.equal(refused.code, "FETCH_ERROR");
    assert.match(refused.message, /Connection refused/);
  } finally {
    await fixture.close();
  }
});

Deno.test("readBody: false answers at the headers, reading no body and no cap", async () => {
  const fixture = startFixtureServer();
  try {
    const policy = openPolicy({ timeoutMs: 3_000, maxBytes: 100_000 });
    // The body takes 5 s, past the 3 s timeout: waiting for it would fail the fetch.
    const slow = await safeFetch(fixture.url("/slow-body?ms=5000"), policy, { readBody: false });
    assert.equal(slow.status, 200);
    assert.equal(slow.body.length, 0);
    assert.equal(slow.text, "");
    const huge = await safeFetch(fixture.url("/huge?bytes=2000000"), policy, { readBody: false });
    assert.equal(huge.status, 200, "a body over the cap is not read, so not refused");
    assert.equal(huge.encodedBytes, 0);
  } finally {
    await fixture.close();
  }
});

Deno.test("gzip, br and deflate bodies are decoded", async () => {
  const fixture = startFixtureServer();
  try {
    const plain = await safeFetch(fixture.url("/shared/hello.html"), openPolicy());
    for (const encoding of ["gzip", "br", "deflate"]) {
      const res = await safeFetch(
        fixture.url(`/shared/hello.html?encoding=${encoding}`),
        openPolicy(),
      );
      assert.equal(res.headers.get("content-encoding"), encoding);
      assert.equal(res.text, plain.text, encoding);
      assert.ok(res.encodedBytes > 0 && res.encodedBytes !== res.body.length);
    }
  } finally {
    await fixture.close();
  }
});

Deno.test("a latin-1 page is decoded from the header or from <meta charset>", async () => {
  const fixture = startFixtureServer();
  try {
    const viaHeader = await safeFetch(
      fixture.url("/shared/latin1.html?type=text/html;charset=ISO-8859-1"),
      openPolicy(),
    );
    const viaMeta = await safeFetch(
      fixture.url("/shared/latin1.html?type=text/html"),
      openPolicy(),
    );
    for (const res of [viaHeader, viaMeta]) {
      assert.match(res.text, /<title>Café Münster<\/title>/);
      assert.match(res.text, /Grüße aus Köln © 2026/);
    }
    assert.equal(viaMeta.charset, "iso-8859-1");
  } finally {
    await fixture.close();
  }
});

Deno.test("invalid input is refused before anything is fetched", async () => {
  for (const value of [undefined, "", "not a url", "ftp://x", "javascript:alert(1)", "http://"]) {
    const err = await failure(() => safeFetch(value, openPolicy()));
    assert.equal(err.code, "INVALID_URL");
    assert.equal(err.message, "Missing or invalid url");
  }
});

Deno.test("a caller's error code carries every failure after validation", async () => {
  const fixture = startFixtureServer();
  try {
    const err = await failure(() =>
      safeFetch(fixture.url("/huge?bytes=200000"), openPolicy({ maxBytes: 1000 }), {
        errorCode: "FETCH_OR_AI_ERROR",
      })
    );
    assert.equal(err.code, "FETCH_OR_AI_ERROR");
  } finally {
    await fixture.close();
  }
});

Deno.test("OPTIONS keeps its method and headers across redirects; ports and ca reach TLS", async () => {
  const seen: string[] = [];
  const s = await startTwinServers(["site.test"], (req, scheme) => {
    const url = new URL(req.url);
    seen.push(`${scheme} ${req.method} ${url.host} ${req.headers.get("origin")}`);
    if (scheme === "http") {
      return new Response(null, { status: 308, headers: { location: "https://site.test/x" } });
    }
    return new Response(null, {
      status: 204,
      headers: { "strict-transport-security": "max-age=60", "access-control-allow-origin": "*" },
    });
  });
  try {
    const policy = openPolicy({
      resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
      ports: new Map([["http://site.test", s.httpPort], ["https://site.test", s.httpsPort]]),
      ca: s.cert,
    });
    const res = await safeFetch("http://site.test/", policy, {
      method: "OPTIONS",
      headers: { origin: "https://o.example" },
    });
    assert.equal(res.status, 204);
    assert.equal(res.finalUrl, "https://site.test/x");
    assert.equal(res.headers.get("access-control-allow-origin"), "*");
    assert.equal(res.redirects[0].status, 308);
    assert.deepEqual(seen, [
      `http OPTIONS site.test:${s.httpPort} https://o.example`,
      `https OPTIONS site.test:${s.httpsPort} https://o.example`,
    ]);
    // Without the test CA, the self-signed certificate is refused as it should be.
    const untrusted = await failure(() =>
      safeFetch("https://site.test/", { ...policy, ca: undefined })
    );
    assert.equal(untrusted.code, "FETCH_ERROR");
    assert.match(untrusted.message, /self.signed|certificate/i);
  } finally {
    await s.close();
  }
});

Deno.test("a refused private host hints at ALLOW_PRIVATE_NETWORKS in dev only", async () => {
  const refusal = async (policy: FetchPolicy) => {
    try {
      await safeFetch("http://127.0.0.1:9/", policy);
    } catch (err) {
      assert.ok(err instanceof ApiError);
      assert.equal(err.code, "INVALID_URL");
      return err.message;
    }
    assert.fail("not refused");
  };
  const deployed = fetchPolicyFromEnv(new Env({}));
  const dev = fetchPolicyFromEnv(new Env({ DEV_MODE: "true" }));
  assert.equal(await refusal(deployed), PRIVATE_HOST_MESSAGE);
  const hinted = await refusal(dev);
  assert.ok(hinted.startsWith(PRIVATE_HOST_MESSAGE), hinted);
  assert.ok(hinted.includes("ALLOW_PRIVATE_NETWORKS=true"), hinted);
});
