/**
 * Warm pages on a real Chromium: after a capture the app prepares the next guarded context
 * and page within the concurrency limit; the next capture takes it (and renders correctly),
 * and a warm page made on a browser that died is thrown away, not used.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/screenshot/app.ts";
import { WarmPages } from "../../functions/screenshot/warm_pages.ts";
import { dispose, prepare } from "../../functions/screenshot/capture.ts";
import { DEFAULT_LIMITS } from "../../functions/screenshot/limits.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { decodePng, rgb } from "../support/png.ts";
import { guardedPolicy, openPolicy } from "../support/policy.ts";
import { chromiumTest, openContexts, testBrowser } from "./chromium.ts";

async function until(check: () => Promise<boolean>, what: string) {
  for (let i = 0; i < 100; i++) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`timed out waiting for ${what}`);
}

chromiumTest("warm pages: prepared after a capture, taken by the next", async (t, chrome) => {
  const server = startFixtureServer();
  const browser = testBrowser(chrome);
  const app = createApp({
    BROWSER: browser,
    fetchPolicy: openPolicy(),
    limits: { warmPages: 1, cacheBytes: 0, maxConcurrentPages: 2 },
  }, { log: () => {} });
  const url = encodeURIComponent(server.url("/screenshot/solid.html"));
  try {
    await t.step("the first capture leaves one warm context behind", async () => {
      const res = await app.request(`/screenshot?url=${url}`);
      assert.equal(res.status, 200);
      await res.arrayBuffer();
      await until(async () => (await openContexts(browser)) === 1, "a warm context");
    });

    await t.step("the next capture uses it and renders the page", async () => {
      const res = await app.request(`/screenshot?url=${url}&width=800`);
      assert.equal(res.status, 200);
      const png = decodePng(new Uint8Array(await res.arrayBuffer()));
      assert.equal(png.width, 800);
      assert.deepEqual(png.pixel(700, 700).slice(0, 3), rgb("#3366cc"));
      // Never more than one warm context: the used one was closed, one new one prepared.
      await until(async () => (await openContexts(browser)) === 1, "one warm context again");
    });
  } finally {
    await browser.close();
    await server.close();
  }
});

chromiumTest("a warm page from a browser that is gone is not used", async (_t, chrome) => {
  const binding = testBrowser(chrome);
  const deps = { browser: binding, policy: guardedPolicy(), limits: DEFAULT_LIMITS };
  const warm = new WarmPages(1, { prepare: (browser) => prepare(browser, deps), dispose });
  try {
    const first = await binding.get();
    warm.fill(first, 4);
    assert.equal(warm.size, 1);
    first.process()!.kill("SIGKILL");
    await until(() => Promise.resolve(!first.connected), "the browser to die");
    const second = await binding.get();
    assert.notEqual(second, first);
    assert.equal(await warm.take(second), null);
    assert.equal(warm.size, 0);
  } finally {
    await warm.close();
    await binding.close();
  }
});
