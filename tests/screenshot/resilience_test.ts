/**
 * `/screenshot` under trouble on a real Chromium: a page that never settles, a browser
 * killed mid-run, and more requests than pages; every context is closed afterwards.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { NAVIGATION_TIMEOUT_MS } from "../../functions/screenshot/limits.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { pngSize } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest, openContexts, testBrowser } from "./chromium.ts";

const quiet = { log: () => {} };

chromiumTest(
  "screenshot survives timeouts, a killed browser and a flood",
  async (t, chromePath) => {
    const server = startFixtureServer();
    const browser = testBrowser(chromePath);
    const fetchPolicy = openPolicy();
    const shootWith = (app: ReturnType<typeof createApp>, path: string) =>
      app.request(`/screenshot?url=${encodeURIComponent(server.url(path))}`);
    try {
      await browser.get(); // launched once here, so the timings below are warm

      await t.step("a page that never settles is a 502 within the timeout", async () => {
        const navigationTimeoutMs = 1_500;
        const app = createApp(
          // No repeat cache: each capture below is a real one.
          { BROWSER: browser, fetchPolicy, limits: { navigationTimeoutMs, cacheBytes: 0 } },
          quiet,
        );
        const timed = async (path: string) => {
          const started = performance.now();
          const res = await shootWith(app, path);
          const body = await res.arrayBuffer();
          return { res, body, ms: performance.now() - started };
        };
        // What a whole capture of a page that settles at once costs on this machine right now
        // (context, page, load, quiet window, PNG): an upper bound of what the timed-out one
        // spends around its timeout, taken before and after it as the load may change.
        const before = await timed("/screenshot/solid.html");
        const { res, body, ms: elapsed } = await timed("/screenshot/never_settles.html");
        const after = await timed("/screenshot/solid.html");
        assert.equal(before.res.status, 200);
        assert.equal(after.res.status, 200);
        assert.equal(res.status, 502);
        assert.deepEqual(JSON.parse(new TextDecoder().decode(body)), {
          error: "Navigation timed out after 1500 ms",
          code: "SCREENSHOT_ERROR",
        });
        const overhead = Math.max(before.ms, after.ms);
        const timing = `answered after ${elapsed} ms; a settled capture took ${overhead} ms`;
        assert.ok(elapsed >= navigationTimeoutMs, timing);
        // Not honoured, the configured timeout would leave the page to the default one (20 s),
        // or to the capture's outer deadline (longer): the bound stays below those.
        const bound = Math.min(navigationTimeoutMs + 2 * overhead, NAVIGATION_TIMEOUT_MS);
        assert.ok(elapsed < bound, timing);
        assert.ok(server.hits("/tick") > 0, "the page did poll");
      });

      await t.step(
        "the browser killed mid-run: that request fails, the next succeeds",
        async () => {
          const app = createApp({ BROWSER: browser, fetchPolicy }, quiet);
          const first = await browser.get();
          const pid = first.process()!.pid;
          const ticksBefore = server.hits("/tick");
          const inFlight = shootWith(app, "/screenshot/never_settles.html");
          while (server.hits("/tick") < ticksBefore + 2) {
            await new Promise((r) => setTimeout(r, 50));
          }
          first.process()!.kill("SIGKILL");
          const failed = await inFlight;
          assert.equal(failed.status, 502);
          assert.equal((await failed.json()).code, "SCREENSHOT_ERROR");

          const res = await shootWith(app, "/screenshot/solid.html");
          assert.equal(res.status, 200, await res.clone().text());
          assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), {
            width: 1280,
            height: 800,
          });
          const second = await browser.get();
          assert.notEqual(second.process()!.pid, pid, "a new Chromium was launched");
        },
      );

      await t.step(
        "20 requests, 8 at a time: each is a PNG or 'Busy' with Retry-After",
        async () => {
          const limits = { maxConcurrentPages: 2, maxQueuedPages: 2, queueTimeoutMs: 5_000 };
          const app = createApp({ BROWSER: browser, fetchPolicy, limits }, quiet);
          const outcomes: string[] = [];
          let next = 0;
          const worker = async () => {
            while (next < 20) {
              next++;
              const res = await shootWith(app, "/screenshot/solid.html");
              if (res.status === 200) {
                assert.equal(res.headers.get("content-type"), "image/png");
                assert.equal(pngSize(new Uint8Array(await res.arrayBuffer())).width, 1280);
                outcomes.push("png");
              } else {
                assert.equal(res.status, 502);
                assert.equal(res.headers.get("retry-after"), "1");
                const body = await res.json();
                assert.equal(body.code, "SCREENSHOT_ERROR");
                assert.match(body.error, /^Busy: /);
                outcomes.push("busy");
              }
            }
          };
          await Promise.all(Array.from({ length: 8 }, worker));
          assert.equal(outcomes.length, 20);
          assert.ok(outcomes.includes("png"), "some requests got a page");
          assert.ok(outcomes.includes("busy"), "8 at once over 2 pages + 2 queued turns some away");
          assert.equal(await openContexts(browser), 0, "no leaked browser contexts");
        },
      );
    } finally {
      await browser.close();
      await server.close();
    }
  },
);
