/**
 * The Observatory's two extra requests, end to end over real TLS on loopback: the http:// twin
 * of an https:// page (redirection row) and the CORS preflight (CORS row). Host names are
 * served from ephemeral ports through the safe fetch's `ports` and `resolve` test hooks.
 */
import assert from "node:assert/strict";
import { inspectUrl } from "../../functions/devtools-inspector/inspect.ts";
import { httpCounterpart } from "../../functions/devtools-inspector/probes.ts";
import type { InspectResult } from "../../functions/devtools-inspector/schema.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { openPolicy } from "../support/policy.ts";
import { startTwinServers, type TwinServers } from "../support/tls.ts";

const PAGE = "<!doctype html><title>t</title>";

/** A body that starts and never ends. */
const stalledBody = () =>
  new ReadableStream<Uint8Array>({ start: (c) => c.enqueue(new TextEncoder().encode("<p>")) });
const HSTS = { "strict-transport-security": "max-age=63072000" };

/** Sites by scheme and host; a host missing for a scheme is not served there. */
function site(req: Request, scheme: "http" | "https"): Response {
  const url = new URL(req.url);
  const key = `${scheme}://${url.hostname}`;
  const to = (location: string) => new Response(null, { status: 301, headers: { location } });
  if (
    key === "http://stalled.test" || (key === "https://stalled.test" && req.method === "OPTIONS")
  ) {
    // Status and headers at once, then a body that never ends: only the page's body is read.
    return new Response(stalledBody(), { headers: { "access-control-allow-origin": "*" } });
  }
  if (req.method === "OPTIONS") {
    const origin = req.headers.get("origin") ?? "";
    if (url.hostname === "reflect.test") {
      return new Response(null, {
        status: 204,
        headers: {
          "access-control-allow-origin": origin,
          "access-control-allow-credentials": "true",
        },
      });
    }
    return new Response(null, { status: 405 });
  }
  switch (key) {
    case "http://good.test":
    case "http://reflect.test":
      return to(`https://${url.hostname}${url.pathname}`);
    case "http://offhost.test":
      return to("https://www.offhost.test/");
    case "http://plain.test":
      return new Response(PAGE, { headers: { "content-type": "text/html" } });
  }
  return new Response(PAGE, { headers: { "content-type": "text/html", ...HSTS } });
}

const HOSTS = [
  "good.test",
  "reflect.test",
  "offhost.test",
  "www.offhost.test",
  "plain.test",
  "stalled.test",
];
const CERT_HOSTS = [...HOSTS, "nohttp.test"];

/** The policy that sends each host's http and https origins to the twin servers. */
function policyFor(s: TwinServers, closedPort: number, overrides: Partial<FetchPolicy> = {}) {
  const ports = new Map<string, number>();
  for (const host of HOSTS) {
    ports.set(`http://${host}`, s.httpPort);
    ports.set(`https://${host}`, s.httpsPort);
  }
  ports.set("http://nohttp.test", closedPort);
  ports.set("https://nohttp.test", s.httpsPort);
  return openPolicy({
    resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
    ports,
    ca: s.cert,
    ...overrides,
  });
}

function row(result: InspectResult, id: string) {
  const found = result.security.checks.find((c) => c.id === id);
  assert.ok(found, id);
  return found;
}

function closedPort(): number {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (listener.addr as Deno.NetAddr).port;
  listener.close();
  return port;
}

Deno.test("the http:// twin is the host on port 80 with the same path and query", () => {
  assert.equal(httpCounterpart("https://shop.example/a/b?q=1"), "http://shop.example/a/b?q=1");
  assert.equal(httpCounterpart("https://shop.example:8443/"), "http://shop.example/");
  assert.equal(httpCounterpart("https://[2001:db8::1]:8443/x"), "http://[2001:db8::1]/x");
});

Deno.test("an https:// page: its http:// twin and a preflight are fetched and audited", async () => {
  const s = await startTwinServers(CERT_HOSTS, site);
  try {
    const policy = policyFor(s, closedPort());
    const good = await inspectUrl("https://good.test/docs?x=1", policy);
    assert.equal(good.finalUrl, "https://good.test/docs?x=1");
    assert.equal(good.redirects.length, 0, "the page's own chain is unchanged");
    assert.equal(row(good, "redirection").result, "redirection-to-https");
    assert.deepEqual(row(good, "redirection").evidence, [
      "301 http://good.test/docs",
      "200 https://good.test/docs",
    ]);
    assert.equal(row(good, "strict-transport-security").pass, true);
    assert.equal(
      row(good, "cross-origin-resource-sharing").result,
      "cross-origin-resource-sharing-not-implemented",
    );
    assert.match(row(good, "cross-origin-resource-sharing").evidence[0], /answered 405/);

    const reflect = await inspectUrl("https://reflect.test/", policy);
    const cors = row(reflect, "cross-origin-resource-sharing");
    assert.equal(cors.result, "cross-origin-resource-sharing-implemented-with-universal-access");
    assert.equal(cors.scoreModifier, -50);
    assert.ok(reflect.security.score <= good.security.score - 50);

    const offhost = await inspectUrl("https://www.offhost.test/", policy);
    // The twin of www.offhost.test is its own http://, which answers without redirecting.
    assert.equal(row(offhost, "redirection").result, "redirection-missing");
    const offhostFromHttp = await inspectUrl("http://offhost.test/", policy);
    assert.equal(row(offhostFromHttp, "redirection").result, "redirection-off-host-from-http");
    assert.deepEqual(offhostFromHttp.redirects, [
      { url: "http://offhost.test/", status: 301, location: "https://www.offhost.test/" },
    ], "hop headers stay out of the result");

    const nohttp = await inspectUrl("https://nohttp.test/", policy);
    assert.equal(row(nohttp, "redirection").result, "redirection-not-needed-no-http");
    assert.match(row(nohttp, "redirection").evidence[0], /Connection refused/);

    const plain = await inspectUrl("https://plain.test/", policy);
    assert.equal(row(plain, "redirection").result, "redirection-missing");
    assert.equal(row(plain, "redirection").scoreModifier, -20);
  } finally {
    await s.close();
  }
});

Deno.test("the twin and the preflight read statuses and headers, never a body", async () => {
  const s = await startTwinServers(CERT_HOSTS, site);
  try {
    const result = await inspectUrl(
      "https://stalled.test/",
      policyFor(s, closedPort(), {
        timeoutMs: 3_000,
      }),
    );
    // Waiting for either body would take the whole deadline and lose both answers below.
    assert.equal(row(result, "redirection").result, "redirection-missing");
    assert.deepEqual(row(result, "cross-origin-resource-sharing").evidence, [
      "Access-Control-Allow-Origin: *",
    ]);
  } finally {
    await s.close();
  }
});

Deno.test("an http:// page is its own route: no twin is fetched", async () => {
  const seen: string[] = [];
  const s = await startTwinServers(CERT_HOSTS, (req, scheme) => {
    seen.push(`${scheme} ${req.method} ${new URL(req.url).hostname}`);
    return site(req, scheme);
  });
  try {
    const result = await inspectUrl("http://plain.test/", policyFor(s, closedPort()));
    assert.equal(row(result, "redirection").result, "redirection-missing");
    assert.equal(row(result, "strict-transport-security").result, "hsts-not-implemented-no-https");
    assert.deepEqual(seen, ["http GET plain.test", "http OPTIONS plain.test"]);
  } finally {
    await s.close();
  }
});

Deno.test("a twin that never answers costs at most the one fetch deadline", async () => {
  const stalled = Deno.listen({ hostname: "127.0.0.1", port: 0 }); // accepts, never answers
  const held: Deno.Conn[] = [];
  (async () => {
    for await (const conn of stalled) held.push(conn);
  })().catch(() => {});
  const s = await startTwinServers(CERT_HOSTS, site);
  try {
    const policy = policyFor(s, (stalled.addr as Deno.NetAddr).port, { timeoutMs: 800 });
    const result = await endedByDeadline(inspectUrl("https://nohttp.test/", policy), 800);
    assert.equal(row(result, "redirection").result, "redirection-not-needed-no-http");
    assert.match(row(result, "redirection").evidence[0], /Timed out|abort/i);
  } finally {
    stalled.close();
    for (const conn of held) conn.close();
    await s.close();
  }
});
