/**
 * Connect mode: a Chromium the test starts itself with `--remote-debugging-port=0` on
 * 127.0.0.1, reached through `BROWSER_WS_ENDPOINT` as a remote browser would be. The guard
 * holds there too (no launch flags of ours: the per-context proxy does it all), and a remote
 * browser that goes away is a 502 naming `BROWSER_WS_ENDPOINT`.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { browserFromEnv } from "../../shared/bindings/browser/mod.ts";
import { Env } from "../../shared/contract/config.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, rgb } from "../support/png.ts";
import { guardedPolicy, openPolicy } from "../support/policy.ts";
import { chromiumTest } from "./chromium.ts";

/** A headless Chromium serving DevTools on a free loopback port. */
async function startRemoteChromium(chromePath: string) {
  const profile = await Deno.makeTempDir({ prefix: "screenshot-remote-" });
  const child = new Deno.Command(chromePath, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let endpoint: string | undefined;
  const deadline = setTimeout(() => child.kill("SIGKILL"), 20_000);
  while (!endpoint) {
    const { value, done } = await lines.read();
    if (done) break;
    seen += value;
    endpoint = seen.match(/DevTools listening on (ws:\/\/\S+)/)?.[1];
  }
  clearTimeout(deadline);
  // Keep draining stderr, or Chromium blocks on a full pipe.
  const drained = (async () => {
    while (!(await lines.read()).done);
  })();
  if (!endpoint) throw new Error(`no DevTools endpoint in Chromium's stderr:\n${seen}`);
  let stopped = false;
  return {
    endpoint,
    async stop() {
      if (!stopped) child.kill("SIGKILL");
      stopped = true;
      await child.status;
      await drained;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}

chromiumTest("connect mode: BROWSER_WS_ENDPOINT to a running Chromium", async (t, chromePath) => {
  const remote = await startRemoteChromium(chromePath);
  const server = startFixtureServer();
  const target = startFixtureServer();
  const browser = browserFromEnv(new Env({ BROWSER_WS_ENDPOINT: remote.endpoint }));
  const quiet = { log: () => {} };
  try {
    assert.equal(browser.mode, "connect");

    await t.step("captures through the remote browser", async () => {
      const app = createApp({ browser, fetchPolicy: openPolicy() }, quiet);
      const url = server.url("/screenshot/solid.html");
      const res = await app.request(`/screenshot?url=${encodeURIComponent(url)}&width=640`);
      assert.equal(res.status, 200, await res.clone().text());
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual([png.width, png.height], [640, 800]);
      assert.deepEqual(png.pixel(600, 700).slice(0, 3), rgb("#3366cc"));
    });

    await t.step("the guard holds without launch flags: zero hits on the target", async () => {
      const page = `<body style="background:#3366cc">
        <img src="${target.url("/img.png")}"><iframe src="${target.url("/frame.html")}"></iframe>
        <script>fetch("${target.url("/fetch")}").catch(() => {});</script></body>`;
      const pages = startFixtureServer({
        "/page.html": () => new Response(page, { headers: { "content-type": "text/html" } }),
      });
      try {
        const app = createApp({ browser, fetchPolicy: guardedPolicy({}, [pages.origin]) }, quiet);
        const url = pages.url("/page.html");
        const res = await app.request(`/screenshot?url=${encodeURIComponent(url)}`);
        assert.equal(res.status, 200, await res.clone().text());
        await res.arrayBuffer();
        assert.equal(pages.hits("/page.html"), 1);
        assert.equal(target.hits(), 0);
      } finally {
        await pages.close();
      }
    });

    await t.step("closing the binding disconnects but leaves the remote running", async () => {
      const connected = await browser.get();
      await browser.close();
      assert.equal(connected.connected, false);
      const version = await fetch(
        remote.endpoint.replace(/^ws:/, "http:").replace(/\/devtools\/.*$/, "/json/version"),
      );
      assert.equal(version.status, 200);
      await version.body?.cancel();
    });

    await t.step("a remote browser that is gone is a 502 naming BROWSER_WS_ENDPOINT", async () => {
      await remote.stop();
      const gone = browserFromEnv(new Env({ BROWSER_WS_ENDPOINT: remote.endpoint }));
      const app = createApp({ browser: gone, fetchPolicy: openPolicy() }, quiet);
      const url = server.url("/screenshot/solid.html");
      const res = await app.request(`/screenshot?url=${encodeURIComponent(url)}`);
      assert.equal(res.status, 502);
      const body = await res.json();
      assert.equal(body.code, "SCREENSHOT_ERROR");
      assert.match(body.error, /BROWSER_WS_ENDPOINT/);
      await gone.close();
    });
  } finally {
    await browser.close();
    await remote.stop();
    await server.close();
    await target.close();
  }
});
