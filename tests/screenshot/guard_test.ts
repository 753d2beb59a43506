/**
 * The SSRF guard on a real Chromium: a page allowed to load cannot make the browser reach a
 * private address by any route (image, iframe, fetch, XHR, WebSocket, popup, redirect,
 * https), and a main document that resolves or redirects to one is a 502.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { type FixtureServer, startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, rgb } from "../support/png.ts";
import { guardedPolicy } from "../support/policy.ts";
import { chromiumTest, openContexts, testBrowser } from "./chromium.ts";

/** The second server: what the page tries to reach. Answers everything, upgrades /ws. */
function startTarget(): FixtureServer {
  return startFixtureServer({
    "/ws": (req) => {
      const { socket, response } = Deno.upgradeWebSocket(req);
      socket.onopen = () => socket.send("hello");
      return response;
    },
  });
}

/** A page that reaches for `target` in every way a page can. */
function attackPage(target: FixtureServer): string {
  const p = target.port;
  return `<!doctype html><html><head>
<link rel="stylesheet" href="http://second.test:${p}/style.css">
</head><body style="margin:0;background:#3366cc">
<img src="http://127.0.0.1:${p}/img.png">
<img src="/redirect?to=${encodeURIComponent(`http://127.0.0.1:${p}/redirected.png`)}">
<img src="https://127.0.0.1:${p}/tls.png">
<iframe src="http://second.test:${p}/frame.html"></iframe>
<script>
  fetch("http://localhost:${p}/fetch").catch(() => {});
  const xhr = new XMLHttpRequest();
  xhr.open("GET", "http://[::ffff:127.0.0.1]:${p}/xhr");
  xhr.send();
  try { new WebSocket("ws://127.0.0.1:${p}/ws"); } catch {}
  window.open("http://second.test:${p}/popup.html");
</script>
</body></html>`;
}

const BLUE = rgb("#3366cc");

/** The injected resolver's names: all of them are loopback, like a rebinding attacker's. */
const NAMES = { "public.test": "127.0.0.1", "second.test": "127.0.0.1", localhost: "127.0.0.1" };

chromiumTest("the page cannot reach a private address by any route", async (t, chromePath) => {
  const target = startTarget();
  const page = startFixtureServer({
    "/attack.html": () =>
      new Response(attackPage(target), { headers: { "content-type": "text/html" } }),
  });
  const browser = testBrowser(chromePath);
  // public.test resolves to loopback through the injected resolver; only its origin is
  // allow-listed, so the page loads while the target, on the same address, stays refused.
  const publicOrigin = `http://public.test:${page.port}`;
  const guarded = guardedPolicy(NAMES, [publicOrigin]);
  const quiet = { log: () => {} };
  const guardedApp = createApp({ BROWSER: browser, fetchPolicy: guarded }, quiet);
  const shoot = (url: string) => guardedApp.request(`/screenshot?url=${encodeURIComponent(url)}`);
  try {
    await t.step("control: with the guard off the page does reach the target", async () => {
      const open = guardedPolicy(NAMES, [], { allowPrivate: true });
      const openApp = createApp({ BROWSER: browser, fetchPolicy: open }, quiet);
      const res = await openApp.request(
        `/screenshot?url=${encodeURIComponent(page.url("/attack.html"))}`,
      );
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      const paths = [
        "/img.png",
        "/redirected.png",
        "/style.css",
        "/frame.html",
        "/fetch",
        "/xhr",
        "/ws",
      ];
      for (const path of paths) {
        assert.ok(target.hits(path) > 0, `control run never requested ${path}`);
      }
    });

    await t.step("guard on: the page renders and the target sees zero requests", async () => {
      const before = target.hits();
      const res = await shoot(`${publicOrigin}/attack.html`);
      assert.equal(res.status, 200, await res.clone().text());
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(png.pixel(1200, 700).slice(0, 3), BLUE);
      await new Promise((r) => setTimeout(r, 300)); // anything late would have arrived by now
      assert.equal(target.hits(), before, "the target was reached through the browser");
    });

    await t.step("a main document on a name resolving to loopback is a 502", async () => {
      const before = target.hits();
      const res = await shoot(`http://second.test:${target.port}/screenshot/solid.html`);
      assert.equal(res.status, 502);
      const body = await res.json();
      assert.equal(body.code, "SCREENSHOT_ERROR");
      assert.match(body.error, /private or reserved/);
      assert.equal(target.hits(), before);
    });

    await t.step("a main document redirecting to a private address is a 502", async () => {
      const before = target.hits();
      const to = `http://127.0.0.1:${target.port}/screenshot/solid.html`;
      const res = await shoot(`${publicOrigin}/redirect?to=${encodeURIComponent(to)}`);
      assert.equal(res.status, 502);
      const body = await res.json();
      assert.equal(body.code, "SCREENSHOT_ERROR");
      assert.match(body.error, /private or reserved/);
      assert.equal(target.hits(), before);
    });

    await t.step("an https main document on a private address is a 502", async () => {
      const res = await shoot(`https://second.test:${target.port}/`);
      assert.equal(res.status, 502);
      assert.match((await res.json()).error, /private or reserved/);
    });

    await t.step("a name that does not resolve is a 502 naming it", async () => {
      const res = await shoot("http://nowhere.test/");
      assert.equal(res.status, 502);
      assert.deepEqual(await res.json(), {
        error: "DNS lookup failed for nowhere.test",
        code: "SCREENSHOT_ERROR",
      });
    });

    await t.step("no context outlives its request", async () => {
      assert.equal(await openContexts(browser), 0);
    });
  } finally {
    await browser.close();
    await page.close();
    await target.close();
  }
});

Deno.test("literal private hosts are 400 INVALID_URL before any browser is touched", async () => {
  const browser = {
    mode: "launch" as const,
    get: () => Promise.reject(new Error("the browser must not be used")),
    close: () => Promise.resolve(),
  };
  const app = createApp({ BROWSER: browser, fetchPolicy: guardedPolicy() }, { log: () => {} });
  for (
    const url of [
      "http://127.0.0.1:8080/",
      "http://localhost/",
      "http://app.localhost/",
      "http://[::1]/",
      "http://10.1.2.3/",
      "http://169.254.169.254/latest/meta-data/",
      "http://metadata.google.internal/",
      "http://[::ffff:192.168.0.1]/",
      "http://intranet/",
    ]
  ) {
    const res = await app.request(`/screenshot?url=${encodeURIComponent(url)}`);
    assert.equal(res.status, 400, url);
    assert.deepEqual(await res.json(), {
      error: "URL host is a private or reserved address",
      code: "INVALID_URL",
    });
  }
});
