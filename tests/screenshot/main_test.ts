/**
 * functions/screenshot/main.ts as `deno task dev:screenshot` runs it: it serves a PNG with the
 * environment's settings, and SIGTERM takes the Chromium it launched down with it.
 */
import assert from "node:assert/strict";
import { startFixtureServer } from "../support/fixture_server.ts";
import { pngSize } from "../support/png.ts";
import { startEntrypoint } from "../support/entrypoint.ts";
import { chromiumTest } from "./chromium.ts";
import { PROFILE_PREFIX } from "../../shared/bindings/browser/mod.ts";

/**
 * PIDs of the Chromium processes the service with PID `servicePid` launched: their profile
 * folder is named after it (`PROFILE_PREFIX<pid>-…`), so another test run's or another
 * user's Chromium on the same machine is never counted.
 */
async function chromiumsOf(servicePid: number): Promise<number[]> {
  const marker = `--user-data-dir=`;
  const profile = `${PROFILE_PREFIX}${servicePid}-`;
  const pids: number[] = [];
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const args = (await Deno.readTextFile(`/proc/${entry.name}/cmdline`)).split("\0");
      if (args.some((a) => a.startsWith(marker) && a.includes(profile))) {
        pids.push(Number(entry.name));
      }
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

chromiumTest(
  "main.ts serves screenshots and takes Chromium down on SIGTERM",
  async (_t, chrome) => {
    const fixtures = startFixtureServer();
    const main = await startEntrypoint("screenshot", {
      CHROME_PATH: chrome,
      ALLOW_PRIVATE_NETWORKS: "true",
      MAX_CONCURRENT_PAGES: "2",
    });
    try {
      const url = encodeURIComponent(fixtures.url("/screenshot/solid.html"));
      const res = await fetch(`${main.origin}/screenshot?url=${url}&height=600`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "public, max-age=60");
      const size = pngSize(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(size, { width: 1280, height: 600 });
      const launched = await chromiumsOf(main.child.pid);
      assert.ok(launched.length > 0, "main.ts launched a Chromium");

      main.child.kill("SIGTERM");
      assert.equal((await main.child.status).code, 0);
      assert.deepEqual(await chromiumsOf(main.child.pid), [], "Chromium outlived the service");
    } finally {
      await main.stop();
      await fixtures.close();
    }
  },
);
