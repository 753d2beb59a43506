/**
 * `blockAds` and `hideCookieBanners` on a real Chromium, with the engines packaged in
 * `functions/screenshot/blocklists/`: a request matching a list rule never reaches the
 * fixture server, an ad slot and a OneTrust-like consent banner with its overlay are gone from
 * the decoded pixels, and without the options everything is there. The page is served under a
 * public-looking name resolved to loopback by the test's policy: the AdGuard list itself
 * turns generic hiding off on `127.0.0.1` and `localhost`.
 */
import assert from "node:assert/strict";
import { Request } from "@ghostery/adblocker";
import { createApp } from "../../functions/screenshot/app.ts";
import { loadBlocklist } from "../../functions/screenshot/content_blocking.ts";
import { type FixtureServer, startFixtureServer } from "../support/fixture_server.ts";
import { type BrowserBinding, browserFromEnv } from "../../shared/bindings/browser/mod.ts";
import { Env } from "../../shared/contract/config.ts";
import { decodePng, rgb } from "../support/png.ts";
import { openPolicy } from "../support/policy.ts";
import type { Resolver } from "../../shared/net/safe_fetch.ts";
import { chromiumTest, startRemoteChromium, testBrowser } from "./chromium.ts";

/** Served from /banner.go (AdGuard Base: `/banner.go?spaceid=`): paints the page red. */
const AD_SCRIPT = "document.documentElement.style.background = '#ff0000';";

const PAGE = `<!doctype html><style>
  html, body { margin: 0; background: #ffffff; }
  .ad-unit { position: absolute; left: 0; top: 0; width: 300px; height: 250px; background: #ffaa00; }
  #onetrust-consent-sdk .onetrust-pc-dark-filter {
    position: fixed; inset: 0; background: rgba(0, 0, 0, 0.6); z-index: 10;
  }
  #onetrust-banner-sdk {
    position: fixed; left: 0; right: 0; bottom: 0; height: 200px; background: #ff00ff; z-index: 11;
  }
</style><body>
<div class="ad-unit"></div>
<div id="onetrust-consent-sdk">
  <div class="onetrust-pc-dark-filter"></div>
  <div id="onetrust-banner-sdk"><p>We use cookies</p></div>
</div>
<script src="/banner.go?spaceid=7"></script>
</body>`;

const HOST = "news.example";

/** Resolves the test's public-looking host to loopback. */
const resolve: Resolver = (hostname) =>
  hostname === HOST
    ? Promise.resolve([{ address: "127.0.0.1", family: 4 }])
    : Promise.reject(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }));

Deno.test("the packaged engines block a listed ad URL and hide consent platforms", async () => {
  const ads = await loadBlocklist("ads");
  const page = `http://${HOST}/`;
  const request = (url: string) => Request.fromRawDetails({ url, sourceUrl: page, type: "script" });
  assert.equal(ads.match(request(`http://${HOST}/banner.go?spaceid=7`)).match, true);
  assert.equal(ads.match(request(`http://${HOST}/app.js`)).match, false);
  assert.equal(
    ads.match(request("https://pagead2.googlesyndication.com/pagead/js/adsbygoogle.js")).match,
    true,
  );
  const cookies = await loadBlocklist("cookies");
  const { styles } = cookies.getCosmeticsFilters({
    url: page,
    hostname: HOST,
    domain: HOST,
    ids: ["onetrust-consent-sdk", "CybotCookiebotDialog", "didomi-notice", "truste-consent-track"],
    classes: ["qc-cmp2-container"],
    hrefs: [],
    getInjectionRules: false,
    getExtendedRules: false,
  });
  // OneTrust, Cookiebot, Didomi, TrustArc, Quantcast, Sourcepoint (the IAB TCF message frame).
  for (
    const selector of [
      "#onetrust-consent-sdk",
      "#CybotCookiebotDialog",
      "#didomi-notice",
      "#truste-consent-track",
      "sp_message_container",
    ]
  ) {
    assert.ok(styles.includes(selector), selector);
  }
  // AdGuard's CSS-injection rules arrive as styles: the scroll lock of a dialog is undone.
  const yahoo = cookies.getCosmeticsFilters({
    url: "https://yahoo.com/",
    hostname: "yahoo.com",
    domain: "yahoo.com",
    classes: ["didomi-popup-open"],
    ids: [],
    hrefs: [],
    getInjectionRules: false,
    getExtendedRules: false,
  });
  assert.match(yahoo.styles, /body\.didomi-popup-open\s*\{[^}]*overflow:\s*auto/);
});

/** The three captures, on whichever browser `browser` is. */
async function checkBlocking(t: Deno.TestContext, browser: BrowserBinding, server: FixtureServer) {
  const app = createApp({ BROWSER: browser, fetchPolicy: openPolicy({ resolve }) }, {
    log: () => {},
  });
  const url = encodeURIComponent(`http://${HOST}:${server.port}/page.html`);
  const shoot = async (params: string) => {
    const res = await app.request(`/screenshot?url=${url}&width=800&height=600${params}`);
    assert.equal(res.status, 200, await res.clone().text());
    return decodePng(new Uint8Array(await res.arrayBuffer()));
  };
  await t.step("without the options: ad script ran, ad slot and banner drawn", async () => {
    const before = server.hits("/banner.go");
    const png = await shoot("");
    assert.equal(server.hits("/banner.go"), before + 1);
    assert.deepEqual(png.pixel(100, 100).slice(0, 3), [0x66, 0x44, 0x00], "ad under overlay");
    assert.deepEqual(png.pixel(400, 500).slice(0, 3), rgb("#ff00ff"), "banner");
  });

  await t.step("blockAds=true: the listed script never requested, the ad slot hidden", async () => {
    const before = server.hits("/banner.go");
    const png = await shoot("&blockAds=true");
    assert.equal(server.hits("/banner.go"), before, "the fixture server saw the ad request");
    // The banner is still there; under its overlay the page is white, not orange nor red.
    assert.deepEqual(png.pixel(400, 500).slice(0, 3), rgb("#ff00ff"));
    assert.deepEqual(png.pixel(100, 100).slice(0, 3), [0x66, 0x66, 0x66]);
  });

  await t.step("hideCookieBanners=true: the banner and its overlay are gone", async () => {
    const png = await shoot("&hideCookieBanners=true");
    // Neither banner nor overlay: the page itself, which the unblocked ad script painted red.
    assert.deepEqual(png.pixel(400, 500).slice(0, 3), rgb("#ff0000"), "banner");
    assert.deepEqual(png.pixel(700, 100).slice(0, 3), rgb("#ff0000"), "overlay");
    // The ad is not a cookie banner: still there, no longer under the overlay.
    assert.deepEqual(png.pixel(100, 100).slice(0, 3), rgb("#ffaa00"), "ad");
    const both = await shoot("&hideCookieBanners=true&blockAds=true");
    assert.deepEqual(both.pixel(100, 100).slice(0, 3), rgb("#ffffff"), "ad with both");
    assert.deepEqual(both.pixel(400, 500).slice(0, 3), rgb("#ffffff"), "banner with both");
  });
}

function fixtures(): FixtureServer {
  return startFixtureServer({
    "/page.html": () => new Response(PAGE, { headers: { "content-type": "text/html" } }),
    "/banner.go": () => new Response(AD_SCRIPT, { headers: { "content-type": "text/javascript" } }),
  });
}

chromiumTest("blockAds and hideCookieBanners with a launched browser", async (t, chrome) => {
  const server = fixtures();
  const browser = testBrowser(chrome);
  try {
    await checkBlocking(t, browser, server);
  } finally {
    await browser.close();
    await server.close();
  }
});

chromiumTest(
  "blockAds and hideCookieBanners with a remote browser (in-band guard)",
  async (t, chrome) => {
    const remote = await startRemoteChromium(chrome, [
      `--host-resolver-rules=MAP ${HOST} 127.0.0.1`,
    ]);
    const server = fixtures();
    const browser = browserFromEnv(new Env({ BROWSER_WS_ENDPOINT: remote.endpoint }));
    try {
      assert.equal(browser.mode, "connect");
      await checkBlocking(t, browser, server);
    } finally {
      await browser.close();
      await server.close();
      await remote.stop();
    }
  },
);
