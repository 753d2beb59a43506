/**
 * The policy proxy on its own, spoken to over raw TCP like a browser would: absolute-URI
 * requests and CONNECT tunnels pass or are refused by the address policy, refusals carry the
 * reason, nothing refused reaches the target, and close() ends open tunnels.
 */
import assert from "node:assert/strict";
import {
  PROXY_ERROR_HEADER,
  startPolicyProxy,
} from "../../../../shared/bindings/browser/policy_proxy.ts";
import { startFixtureServer } from "../../../support/fixture_server.ts";
import { guardedPolicy, openPolicy } from "../../../support/policy.ts";

/** Sends `request` to the proxy and reads until the peer closes. */
async function exchange(proxyUrl: string, request: string): Promise<string> {
  const { port } = new URL(proxyUrl);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  try {
    await conn.write(new TextEncoder().encode(request));
    return await new Response(conn.readable).text();
  } catch (err) {
    conn.close();
    throw err;
  }
}

/** A CONNECT, then (when it succeeds) `inner` through the tunnel. */
async function tunnel(proxyUrl: string, authority: string, inner: string) {
  const { port } = new URL(proxyUrl);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  const reader = conn.readable.getReader();
  const decoder = new TextDecoder();
  let text = "";
  await conn.write(
    new TextEncoder().encode(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
  );
  while (!text.includes("\r\n\r\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    text += decoder.decode(value);
  }
  const head = text;
  if (head.startsWith("HTTP/1.1 200")) {
    await conn.write(new TextEncoder().encode(inner));
    text = "";
    while (true) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value);
    }
    return { head, body: text };
  }
  while (!(await reader.read()).done);
  return { head, body: "" };
}

const get = (url: string, host: string) =>
  `GET ${url} HTTP/1.1\r\nHost: ${host}\r\nProxy-Connection: keep-alive\r\nConnection: close\r\n\r\n`;

Deno.test("open policy: absolute-URI requests are forwarded without hop-by-hop headers", async () => {
  let seen: Headers | undefined;
  const server = startFixtureServer({
    "/echo": (req) => {
      seen = req.headers;
      return new Response("echoed", { headers: { "x-upstream": "yes" } });
    },
  });
  const proxy = await startPolicyProxy(openPolicy());
  try {
    const res = await exchange(proxy.url, get(server.url("/echo?a=1"), `127.0.0.1:${server.port}`));
    assert.match(res, /^HTTP\/1\.1 200/);
    assert.match(res, /x-upstream: yes/i);
    assert.match(res, /echoed/);
    assert.equal(server.hits("/echo"), 1);
    assert.equal(seen?.get("host"), `127.0.0.1:${server.port}`);
    assert.equal(seen?.get("proxy-connection"), null);
    assert.equal(proxy.connected, 1);
  } finally {
    await proxy.close();
    await server.close();
  }
});

Deno.test("guarded: private destinations are refused and never contacted", async () => {
  const server = startFixtureServer();
  const proxy = await startPolicyProxy(guardedPolicy({ "rebind.test": "127.0.0.1" }));
  const host = `127.0.0.1:${server.port}`;
  try {
    for (
      const url of [
        server.url("/a"),
        `http://rebind.test:${server.port}/b`,
        `http://localhost:${server.port}/c`,
        `http://[::1]:${server.port}/d`,
        `http://[::ffff:127.0.0.1]:${server.port}/e`,
      ]
    ) {
      const res = await exchange(proxy.url, get(url, host));
      assert.match(res, /^HTTP\/1\.1 403/, url);
      assert.match(res, new RegExp(`${PROXY_ERROR_HEADER}: Refused to connect to `, "i"));
    }
    for (const authority of [host, `rebind.test:${server.port}`, `[::1]:${server.port}`]) {
      const { head } = await tunnel(proxy.url, authority, "");
      assert.match(head, /^HTTP\/1\.1 403/, authority);
      assert.match(head, /private or reserved/);
    }
    assert.equal(server.hits(), 0);
    assert.equal(proxy.connected, 0);
    assert.equal(proxy.failures.length, 8);
    assert.ok(proxy.failures.every((f) => f.refused));
  } finally {
    await proxy.close();
    await server.close();
  }
});

Deno.test("guarded: an allow-listed origin passes, over HTTP and through CONNECT", async () => {
  const server = startFixtureServer();
  const proxy = await startPolicyProxy(guardedPolicy({}, [server.origin]));
  const host = `127.0.0.1:${server.port}`;
  try {
    const res = await exchange(proxy.url, get(server.url("/shared/hello.html"), host));
    assert.match(res, /^HTTP\/1\.1 200/);
    const { head, body } = await tunnel(proxy.url, host, get("/shared/hello.html", host));
    assert.match(head, /^HTTP\/1\.1 200 Connection Established/);
    assert.match(body, /^HTTP\/1\.1 200/);
    assert.equal(server.hits("/shared/hello.html"), 2);
  } finally {
    await proxy.close();
    await server.close();
  }
});

Deno.test("DNS and connection failures are 502 with the reason", async () => {
  const server = startFixtureServer();
  const port = server.port;
  await server.close(); // nothing listens there any more
  const proxy = await startPolicyProxy(guardedPolicy({}, [`http://127.0.0.1:${port}`]));
  try {
    const dns = await exchange(proxy.url, get("http://nowhere.test/", "nowhere.test"));
    assert.match(dns, /^HTTP\/1\.1 502/);
    assert.match(dns, /DNS lookup failed for nowhere\.test/);
    const refused = await exchange(
      proxy.url,
      get(`http://127.0.0.1:${port}/`, `127.0.0.1:${port}`),
    );
    assert.match(refused, /^HTTP\/1\.1 502/);
    assert.match(refused, new RegExp(`Connection refused by 127\\.0\\.0\\.1:${port}`));
    assert.deepEqual(proxy.failures.map((f) => f.refused), [false, false]);
  } finally {
    await proxy.close();
  }
});

Deno.test("an origin-form request is not a proxy request", async () => {
  const proxy = await startPolicyProxy(openPolicy());
  try {
    const res = await exchange(proxy.url, "GET / HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n");
    assert.match(res, /^HTTP\/1\.1 400/);
  } finally {
    await proxy.close();
  }
});

Deno.test("close() ends an open tunnel", async () => {
  const server = startFixtureServer();
  const proxy = await startPolicyProxy(openPolicy());
  const { port } = new URL(proxy.url);
  const conn = await Deno.connect({ hostname: "127.0.0.1", port: Number(port) });
  try {
    const authority = `127.0.0.1:${server.port}`;
    await conn.write(
      new TextEncoder().encode(`CONNECT ${authority} HTTP/1.1\r\nHost: ${authority}\r\n\r\n`),
    );
    const reader = conn.readable.getReader();
    const { value } = await reader.read();
    assert.match(new TextDecoder().decode(value), /^HTTP\/1\.1 200/);
    await proxy.close();
    while (!(await reader.read()).done); // the proxy hung up
  } finally {
    await server.close();
  }
});

Deno.test("past the byte budget connections are cut and new ones refused", async () => {
  const server = startFixtureServer();
  const proxy = await startPolicyProxy(openPolicy(), { maxBytes: 100_000 });
  const host = `127.0.0.1:${server.port}`;
  try {
    const huge = await exchange(proxy.url, get(server.url("/huge?bytes=5000000"), host));
    assert.ok(huge.length < 1_000_000, `got ${huge.length} bytes`);
    assert.ok(proxy.bytesReceived > 100_000);
    assert.ok(proxy.failures.some((f) => f.message === "Page exceeded 100000 bytes"));
    const next = await exchange(proxy.url, get(server.url("/shared/hello.html"), host));
    assert.match(next, /^HTTP\/1\.1 502/);
    assert.match(next, /Page exceeded 100000 bytes/);
    assert.equal(server.hits("/shared/hello.html"), 0);
  } finally {
    await proxy.close();
    await server.close();
  }
});
