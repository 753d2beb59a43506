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
import { chromiumTest, startRemoteChromium } from "./chromium.ts";

/** Inodes of the TCP sockets this process is listening on (Linux /proc). */
async function listeningSockets(): Promise<Set<string>> {
  const mine = new Set<string>();
  for await (const fd of Deno.readDir("/proc/self/fd")) {
    const link = await Deno.readLink(`/proc/self/fd/${fd.name}`).catch(() => "");
    const inode = link.match(/^socket:\[(\d+)\]$/)?.[1];
    if (inode) mine.add(inode);
  }
  const listening = new Set<string>();
  for (const table of ["/proc/net/tcp", "/proc/net/tcp6"]) {
    const text = await Deno.readTextFile(table).catch(() => "");
    for (const line of text.split("\n").slice(1)) {
      const cols = line.trim().split(/\s+/);
      // st 0A is LISTEN; column 9 is the inode.
      if (cols[3] === "0A" && mine.has(cols[9])) listening.add(cols[9]);
    }
  }
  return listening;
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
      const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, quiet);
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
        const app = createApp(
          { BROWSER: browser, fetchPolicy: guardedPolicy({}, [pages.origin]) },
          quiet,
        );
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

    await t.step(
      "in-band: no listening socket opens, a private main document is a 502",
      async () => {
        const app = createApp(
          { BROWSER: browser, fetchPolicy: guardedPolicy({}, [server.origin]) },
          quiet,
        );
        const before = await listeningSockets();
        let seen = new Set<string>();
        let sampling = true;
        const sampler = (async () => {
          while (sampling) {
            for (const s of await listeningSockets()) if (!before.has(s)) seen.add(s);
            await new Promise((r) => setTimeout(r, 10));
          }
        })();
        const url = server.url("/screenshot/solid.html");
        const ok = await app.request(`/screenshot?url=${encodeURIComponent(url)}`);
        assert.equal(ok.status, 200, await ok.clone().text());
        await ok.arrayBuffer();
        const to = target.url("/screenshot/solid.html");
        const refused = await app.request(
          `/screenshot?url=${
            encodeURIComponent(server.url(`/redirect?to=${encodeURIComponent(to)}`))
          }`,
        );
        sampling = false;
        await sampler;
        assert.equal(refused.status, 502);
        assert.match((await refused.json()).error, /private or reserved/);
        assert.equal(target.hits(), 0);
        seen = new Set([...seen].filter((s) => !before.has(s)));
        assert.deepEqual([...seen], [], "the capture opened a listening socket");
      },
    );

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
      const app = createApp({ BROWSER: gone, fetchPolicy: openPolicy() }, quiet);
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
