/**
 * `fullPage=true` on a real Chromium draws lazy content: an `<img loading="lazy">` and a
 * section revealed by an IntersectionObserver, both far below the fold, are in the image
 * (decoded pixels), the capture starts at the top, and a fixed header appears once.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, rgb } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import { chromiumTest, testBrowser } from "./chromium.ts";

const PAGE = `<!doctype html><style>
  body { margin: 0; background: #ffffff; }
  header { position: fixed; top: 0; left: 0; right: 0; height: 60px; background: #ff0000; }
  .gap { height: 3000px; }
  img { display: block; width: 400px; height: 300px; }
  #io { height: 300px; background: #cccccc; }
  #io.seen { background: #0000ff; }
</style><body>
<header></header>
<div class="gap"></div>
<img loading="lazy" src="/green.svg" alt="">
<div class="gap"></div>
<div id="io"></div>
<script>
  new IntersectionObserver((entries) => {
    for (const e of entries) if (e.isIntersecting) e.target.classList.add("seen");
  }).observe(document.getElementById("io"));
</script>
</body>`;

const GREEN_SVG = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="300">` +
  `<rect width="400" height="300" fill="#00ff00"/></svg>`;

chromiumTest(
  "fullPage=true scrolls lazy content in, then captures from the top",
  async (t, chrome) => {
    const server = startFixtureServer({
      "/lazy.html": () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
      "/green.svg": () => new Response(GREEN_SVG, { headers: { "content-type": "image/svg+xml" } }),
    });
    const browser = testBrowser(chrome);
    const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy() }, { log: () => {} });
    try {
      await t.step("the lazy image and the observed section are drawn", async () => {
        const res = await app.request(
          `/screenshot?url=${
            encodeURIComponent(server.url("/lazy.html"))
          }&fullPage=true&width=800&height=600`,
        );
        assert.equal(res.status, 200, await res.clone().text());
        const png = decodePng(new Uint8Array(await res.arrayBuffer()));
        assert.equal(png.width, 800);
        assert.equal(png.height, 3000 + 300 + 3000 + 300);
        assert.equal(server.hits("/green.svg"), 1);
        assert.deepEqual(png.pixel(200, 3150).slice(0, 3), rgb("#00ff00"), "lazy image");
        assert.deepEqual(png.pixel(200, 6450).slice(0, 3), rgb("#0000ff"), "observed section");
        // The header once, at the top: not repeated at each viewport height down the image.
        assert.deepEqual(png.pixel(400, 30).slice(0, 3), rgb("#ff0000"));
        for (const y of [630, 1230, 1830, 3330, 6330]) {
          assert.notDeepEqual(png.pixel(400, y).slice(0, 3), rgb("#ff0000"), `header at y=${y}`);
        }
      });
    } finally {
      await browser.close();
      await server.close();
    }
  },
);
