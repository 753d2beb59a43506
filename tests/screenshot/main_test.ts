/**
 * functions/screenshot/main.ts as `deno task dev:screenshot` runs it: it serves a PNG with the
 * environment's settings, and SIGTERM takes the Chromium it launched down with it.
 */
import assert from "node:assert/strict";
import { startFixtureServer } from "../support/fixture_server.ts";
import { pngSize } from "../support/png.ts";
import { chromiumTest } from "./chromium.ts";

/** PIDs of Chromium processes puppeteer launched (their profile dir names it). */
async function launchedChromiums(): Promise<Set<number>> {
  const pids = new Set<number>();
  for await (const entry of Deno.readDir("/proc")) {
    if (!/^\d+$/.test(entry.name)) continue;
    try {
      const cmdline = await Deno.readTextFile(`/proc/${entry.name}/cmdline`);
      if (cmdline.includes("puppeteer_dev_chrome_profile")) pids.add(Number(entry.name));
    } catch {
      // the process ended while we looked
    }
  }
  return pids;
}

/** Starts main.ts on a free port; Deno.serve announces the port on stderr. */
async function startMain(env: Record<string, string>) {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "functions/screenshot/main.ts"],
    cwd: new URL("../../", import.meta.url),
    env: { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1", ...env },
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeTo(new WritableStream());
  const stderr = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  const watchdog = setTimeout(() => child.kill("SIGKILL"), 30_000); // never hang the suite
  let out = "";
  let port: string | undefined;
  while (!port) {
    const { value, done } = await stderr.read();
    if (done) break;
    out += value;
    port = out.match(/Listening on https?:\/\/[^:]+:(\d+)/)?.[1];
  }
  const drained = (async () => {
    while (!(await stderr.read()).done);
  })();
  return {
    child,
    origin: port ? `http://127.0.0.1:${port}` : null,
    out,
    async stop() {
      clearTimeout(watchdog);
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
      await child.status;
      await drained;
      await stdout.catch(() => {});
    },
  };
}

chromiumTest(
  "main.ts serves screenshots and takes Chromium down on SIGTERM",
  async (_t, chrome) => {
    const fixtures = startFixtureServer();
    const before = await launchedChromiums();
    const main = await startMain({
      CHROME_PATH: chrome,
      ALLOW_PRIVATE_NETWORKS: "true",
      MAX_CONCURRENT_PAGES: "2",
    });
    try {
      assert.ok(main.origin, `main.ts did not start: ${main.out}`);
      const url = encodeURIComponent(fixtures.url("/screenshot/solid.html"));
      const res = await fetch(`${main.origin}/screenshot?url=${url}&height=600`);
      assert.equal(res.status, 200);
      assert.equal(res.headers.get("cache-control"), "public, max-age=60");
      const size = pngSize(new Uint8Array(await res.arrayBuffer()));
      assert.deepEqual(size, { width: 1280, height: 600 });
      const launched = [...await launchedChromiums()].filter((pid) => !before.has(pid));
      assert.ok(launched.length > 0, "main.ts launched a Chromium");

      main.child.kill("SIGTERM");
      assert.equal((await main.child.status).code, 0);
      const left = [...await launchedChromiums()].filter((pid) => launched.includes(pid));
      assert.deepEqual(left, [], "Chromium outlived the service");
    } finally {
      await main.stop();
      await fixtures.close();
    }
  },
);
