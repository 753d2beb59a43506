/**
 * `/screenshot` under trouble on a real Chromium: a page that never settles, a browser
 * killed mid-run, and more requests than pages; every context is closed afterwards.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
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
          { BROWSER: browser, fetchPolicy, limits: { navigationTimeoutMs } },
          quiet,
        );
        const started = performance.now();
        const res = await shootWith(app, "/screenshot/never_settles.html");
        const elapsed = performance.now() - started;
        assert.equal(res.status, 502);
        assert.deepEqual(await res.json(), {
          error: "Navigation timed out after 1500 ms",
          code: "SCREENSHOT_ERROR",
        });
        assert.ok(elapsed >= navigationTimeoutMs, `answered after ${elapsed} ms`);
        assert.ok(elapsed < navigationTimeoutMs + 2_000, `answered after ${elapsed} ms`);
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

      await t.step("20 requests, 8 at a time: each is a PNG or 'Browser busy'", async () => {
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
              assert.deepEqual(await res.json(), {
                error: "Browser busy",
                code: "SCREENSHOT_ERROR",
              });
              outcomes.push("busy");
            }
          }
        };
        await Promise.all(Array.from({ length: 8 }, worker));
        assert.equal(outcomes.length, 20);
        assert.ok(outcomes.includes("png"), "some requests got a page");
        assert.ok(outcomes.includes("busy"), "8 at once over 2 pages + 2 queued turns some away");
        assert.equal(await openContexts(browser), 0, "no leaked browser contexts");
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
);
