/**
 * `/screenshot` on a real Chromium: PNG size and pixels at the default viewport, custom
 * width/height, full page on a tall page, device scale factor, and the response headers.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, pngSize, rgb } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest, openContexts, testBrowser } from "./chromium.ts";

const BLUE = rgb("#3366cc");
const ORANGE = rgb("#ff8800");
const GREEN = rgb("#22aa44");

/** Asserts a pixel is `expected` within a small tolerance (colour management may round). */
function assertColour(actual: number[], expected: number[], where: string) {
  const close = expected.every((v, i) => Math.abs(actual[i] - v) <= 3);
  assert.ok(close, `${where}: expected rgb(${expected}), got rgb(${actual.slice(0, 3)})`);
}

chromiumTest("screenshot renders fixture pages at the requested size", async (t, chromePath) => {
  const server = startFixtureServer({
    "/very-tall.html": () =>
      new Response(
        '<body style="margin:0;background:#3366cc"><div style="height:30000px"></div></body>',
        { headers: { "content-type": "text/html" } },
      ),
  });
  const browser = testBrowser(chromePath);
  const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
  const shoot = (path: string, params = "") =>
    app.request(`/screenshot?url=${encodeURIComponent(server.url(path))}${params}`);
  try {
    await t.step("default viewport: 1280x800 PNG with the page's colours", async () => {
      const res = await shoot("/screenshot/solid.html");
      assert.equal(res.status, 200, await res.clone().text());
      assert.equal(res.headers.get("content-type"), "image/png");
      assert.equal(res.headers.get("cache-control"), "public, max-age=60");
      assert.ok(res.headers.get("x-request-id"));
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual([png.width, png.height], [1280, 800]);
      assertColour(png.pixel(10, 10), ORANGE, "box");
      assertColour(png.pixel(640, 400), BLUE, "centre");
      assertColour(png.pixel(1279, 799), BLUE, "corner");
    });

    await t.step("width and height set the viewport", async () => {
      const res = await shoot("/screenshot/solid.html", "&width=800&height=600");
      assert.equal(res.status, 200);
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual([png.width, png.height], [800, 600]);
      assertColour(png.pixel(199, 99), ORANGE, "box edge");
      assertColour(png.pixel(200, 100), BLUE, "past the box");
    });

    await t.step("fullPage=true captures the whole tall page", async () => {
      const res = await shoot("/screenshot/tall.html", "&fullPage=true");
      assert.equal(res.status, 200);
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual([png.width, png.height], [1280, 3000]);
      assertColour(png.pixel(640, 100), BLUE, "top");
      assertColour(png.pixel(640, 2900), GREEN, "bottom");
    });

    await t.step("fullPage stops at 16384 device pixels (Chromium's largest texture)", async () => {
      const res = await shoot("/very-tall.html", "&fullPage=true&width=320&deviceScaleFactor=2");
      assert.equal(res.status, 200);
      assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), {
        width: 640,
        height: 16384,
      });
    });

    await t.step("without fullPage the tall page is cut at the viewport", async () => {
      const res = await shoot("/screenshot/tall.html");
      assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), {
        width: 1280,
        height: 800,
      });
    });

    await t.step("deviceScaleFactor=2 doubles the pixels: 2560x1600", async () => {
      const res = await shoot("/screenshot/solid.html", "&deviceScaleFactor=2");
      assert.equal(res.status, 200);
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual([png.width, png.height], [2560, 1600]);
      assertColour(png.pixel(390, 190), ORANGE, "scaled box");
      assertColour(png.pixel(410, 210), BLUE, "past the scaled box");
    });

    await t.step("an HTTP error page is still captured", async () => {
      const res = await shoot("/screenshot/missing.html");
      assert.equal(res.status, 200);
      assert.deepEqual(pngSize(new Uint8Array(await res.arrayBuffer())), {
        width: 1280,
        height: 800,
      });
    });

    await t.step("every context was closed", async () => {
      assert.equal(await openContexts(browser), 0);
    });
  } finally {
    await browser.close();
    await server.close();
  }
});
