/**
 * The capture options on a real Chromium: format and quality (the bytes are what
 * the Content-Type says, with the viewport's size), colorScheme (a page that honours
 * `prefers-color-scheme` changes background), selector (the image is the element's box),
 * omitBackground (transparent pixels), and the 400s naming each parameter.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, pngSize, rgb } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest, testBrowser } from "./chromium.ts";

const PAGE = `<!doctype html><style>
  body { margin: 0; background: #ffffff; }
  @media (prefers-color-scheme: dark) { body { background: #102030; } }
  @media (prefers-reduced-motion: reduce) { body { background: #405060; } }
  #box { position: absolute; left: 40px; top: 30px; width: 123px; height: 45px; background: #ff8800; }
</style><body><div id="box"></div></body>`;

/** Width and height from a baseline or progressive JPEG's SOF marker. */
function jpegSize(bytes: Uint8Array): { width: number; height: number } {
  assert.deepEqual([bytes[0], bytes[1]], [0xff, 0xd8], "no JPEG SOI marker");
  for (let at = 2; at + 9 < bytes.length;) {
    assert.equal(bytes[at], 0xff, "broken JPEG marker chain");
    const marker = bytes[at + 1];
    const length = (bytes[at + 2] << 8) | bytes[at + 3];
    if (marker === 0xc0 || marker === 0xc2) {
      return {
        height: (bytes[at + 5] << 8) | bytes[at + 6],
        width: (bytes[at + 7] << 8) | bytes[at + 8],
      };
    }
    at += 2 + length;
  }
  throw new Error("no SOF marker");
}

chromiumTest(
  "capture options: format, quality, colorScheme, selector, omitBackground",
  async (t, chrome) => {
    const server = startFixtureServer({
      "/page.html": () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
      "/bare.html": () =>
        new Response("<!doctype html><body></body>", { headers: { "content-type": "text/html" } }),
    });
    const browser = testBrowser(chrome);
    const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
    const shoot = (path: string, params = "") =>
      app.request(`/screenshot?url=${encodeURIComponent(server.url(path))}${params}`);
    try {
      await t.step(
        "format=jpeg: image/jpeg of the viewport's size; quality changes the bytes",
        async () => {
          const low = await shoot("/page.html", "&format=jpeg&quality=10&width=640&height=400");
          assert.equal(low.status, 200, await low.clone().text());
          assert.equal(low.headers.get("content-type"), "image/jpeg");
          const lowBytes = new Uint8Array(await low.arrayBuffer());
          assert.deepEqual(jpegSize(lowBytes), { width: 640, height: 400 });
          const high = await shoot("/page.html", "&format=jpeg&quality=100&width=640&height=400");
          const highBytes = new Uint8Array(await high.arrayBuffer());
          assert.ok(
            highBytes.length > lowBytes.length,
            "quality=100 is not larger than quality=10",
          );
        },
      );

      await t.step("format=webp: image/webp, a RIFF WEBP body", async () => {
        const res = await shoot("/page.html", "&format=webp");
        assert.equal(res.status, 200);
        assert.equal(res.headers.get("content-type"), "image/webp");
        const bytes = new Uint8Array(await res.arrayBuffer());
        const text = new TextDecoder().decode(bytes.subarray(0, 12));
        assert.equal(text.slice(0, 4) + text.slice(8, 12), "RIFFWEBP");
      });

      await t.step(
        "colorScheme=dark changes the background of a page that honours it",
        async () => {
          const light = decodePng(new Uint8Array(await (await shoot("/page.html")).arrayBuffer()));
          const dark = decodePng(
            new Uint8Array(await (await shoot("/page.html", "&colorScheme=dark")).arrayBuffer()),
          );
          assert.deepEqual(light.pixel(600, 600).slice(0, 3), rgb("#ffffff"));
          assert.deepEqual(dark.pixel(600, 600).slice(0, 3), rgb("#102030"));
        },
      );

      await t.step("reducedMotion=true matches prefers-reduced-motion: reduce", async () => {
        const res = await shoot("/page.html", "&reducedMotion=true");
        assert.equal(res.status, 200);
        const png = decodePng(new Uint8Array(await res.arrayBuffer()));
        assert.deepEqual(png.pixel(600, 600).slice(0, 3), rgb("#405060"));
      });

      await t.step("selector captures the element's box", async () => {
        const res = await shoot("/page.html", "&selector=%23box");
        assert.equal(res.status, 200);
        const png = decodePng(new Uint8Array(await res.arrayBuffer()));
        assert.deepEqual([png.width, png.height], [123, 45]);
        assert.deepEqual(png.pixel(60, 20).slice(0, 3), rgb("#ff8800"));
        const none = await shoot("/page.html", "&selector=.missing");
        assert.equal(none.status, 502);
        assert.deepEqual(await none.json(), {
          error: "No element matches .missing",
          code: "SCREENSHOT_ERROR",
        });
      });

      await t.step("omitBackground=true leaves a page without background transparent", async () => {
        const res = await shoot("/bare.html", "&omitBackground=true&width=400&height=300");
        const png = decodePng(new Uint8Array(await res.arrayBuffer()));
        assert.equal(png.pixel(200, 150)[3], 0);
        const opaque = await shoot("/bare.html", "&width=400&height=300");
        assert.equal(decodePng(new Uint8Array(await opaque.arrayBuffer())).pixel(200, 150)[3], 255);
        assert.deepEqual(pngSize(new Uint8Array(await (await shoot("/bare.html")).arrayBuffer())), {
          width: 1280,
          height: 800,
        });
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
);

Deno.test("bad option values are 400 INVALID_INPUT naming the parameter", async () => {
  const browser = {
    mode: "launch" as const,
    get: () => Promise.reject(new Error("the browser must not be used")),
    close: () => Promise.resolve(),
  };
  const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
  const cases: [string, string][] = [
    ["format=gif", "format must be one of png, jpeg, webp"],
    ["format=jpeg&quality=0", "quality must be an integer from 1 to 100"],
    ["format=webp&quality=101", "quality must be an integer from 1 to 100"],
    ["quality=50", "quality applies to format=jpeg or webp only"],
    ["colorScheme=blue", "colorScheme must be one of light, dark"],
    ["reducedMotion=yes", "reducedMotion must be true or false"],
    ["omitBackground=1", "omitBackground must be true or false"],
    ["format=jpeg&omitBackground=true", "omitBackground needs format=png or webp"],
    ["selector=", "selector must be a CSS selector of 1 to 500 characters"],
  ];
  for (const [params, error] of cases) {
    const res = await app.request(`/screenshot?url=https://example.com/&${params}`);
    assert.equal(res.status, 400, params);
    assert.deepEqual(await res.json(), { error, code: "INVALID_INPUT" }, params);
  }
});
