/**
 * Network idle from request events, on a real Chromium: late requests after `load` are
 * waited for (the capture shows what they drew), a long poll or an EventSource does not hold
 * the capture up, and waitFor waits for a selector or a time.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { NAVIGATION_TIMEOUT_MS } from "../../functions/screenshot/limits.ts";
import { LONG_REQUEST_MS } from "../../functions/screenshot/network_idle.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { decodePng, rgb } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest, testBrowser } from "./chromium.ts";

const HTML = { "content-type": "text/html" };

/** A page that paints green only once a fetch that starts after `load` has answered. */
const LATE = `<!doctype html><body style="margin:0;background:#ff0000"><script>
  addEventListener("load", () => setTimeout(() => {
    fetch("/slow-body?ms=300").then((r) => r.text()).then(() => {
      document.body.style.background = "#22aa44";
    });
  }, 50));
</script></body>`;

/** A page with a long poll and an EventSource that never end. */
const STREAMING = `<!doctype html><body style="margin:0;background:#3366cc"><script>
  fetch("/stall?ms=60000").catch(() => {});
  try { new EventSource("/slow-body?ms=60000"); } catch {}
</script></body>`;

/** A page that adds #late 3 s after it started and paints it orange (no request meanwhile). */
const APPEARS = `<!doctype html><body style="margin:0;background:#ffffff"><script>
  setTimeout(() => {
    const d = document.createElement("div");
    d.id = "late";
    d.style = "width:100vw;height:100vh;background:#ff8800";
    document.body.appendChild(d);
  }, 3000);
</script></body>`;

chromiumTest("network idle and waitFor", async (t, chrome) => {
  const server = startFixtureServer({
    "/late.html": () => new Response(LATE, { headers: HTML }),
    "/streaming.html": () => new Response(STREAMING, { headers: HTML }),
    "/appears.html": () => new Response(APPEARS, { headers: HTML }),
  });
  const browser = testBrowser(chrome);
  const app = createApp(
    { BROWSER: browser, fetchPolicy: openPolicy(), limits: { cacheBytes: 0 } },
    {
      log: () => {},
    },
  );
  const shoot = (path: string, params = "") =>
    app.request(`/screenshot?url=${encodeURIComponent(server.url(path))}${params}`);
  try {
    await browser.get();

    await t.step("a request that starts after load is waited for", async () => {
      const res = await shoot("/late.html");
      assert.equal(res.status, 200, await res.clone().text());
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(png.pixel(640, 400).slice(0, 3), rgb("#22aa44"));
    });

    await t.step("a long poll and an EventSource do not hold the capture", async () => {
      // Ended by the long-request cut-off, before the navigation timeout would fire.
      const res = await endedByDeadline(
        shoot("/streaming.html"),
        LONG_REQUEST_MS,
        NAVIGATION_TIMEOUT_MS,
      );
      assert.equal(res.status, 200, await res.clone().text());
      await res.arrayBuffer();
    });

    await t.step("waitFor=<selector> waits for the element", async () => {
      const without = decodePng(new Uint8Array(await (await shoot("/appears.html")).arrayBuffer()));
      assert.deepEqual(without.pixel(640, 400).slice(0, 3), rgb("#ffffff"));
      const res = await shoot("/appears.html", "&waitFor=%23late");
      assert.equal(res.status, 200);
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(png.pixel(640, 400).slice(0, 3), rgb("#ff8800"));
    });

    await t.step("waitFor=<ms> waits that long", async () => {
      const res = await shoot("/appears.html", "&waitFor=3500");
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(png.pixel(640, 400).slice(0, 3), rgb("#ff8800"));
    });

    await t.step("waitFor a selector that never appears is a 502", async () => {
      const quick = createApp({
        BROWSER: browser,
        fetchPolicy: openPolicy(),
        limits: { navigationTimeoutMs: 2_000, cacheBytes: 0 },
      }, { log: () => {} });
      const url = encodeURIComponent(server.url("/appears.html"));
      const res = await quick.request(`/screenshot?url=${url}&waitFor=.never`);
      assert.equal(res.status, 502);
      assert.deepEqual(await res.json(), {
        error: "waitFor: no element matched .never in time",
        code: "SCREENSHOT_ERROR",
      });
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
