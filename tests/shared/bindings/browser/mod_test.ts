/**
 * The BROWSER binding's profile folders: each launched Chromium gets its own, named after
 * the service's PID; it goes when the browser does (even after SIGKILL), and the next launch
 * sweeps those of services that are gone.
 */
import assert from "node:assert/strict";
import {
  createBrowser,
  PROFILE_PREFIX,
  sweepStaleProfiles,
} from "../../../../shared/bindings/browser/mod.ts";
import { chromiumTest } from "../../../screenshot/chromium.ts";

Deno.test("sweepStaleProfiles removes only the folders of dead services", async () => {
  const tmp = await Deno.makeTempDir({ prefix: "sweep-test-" });
  try {
    // PID 4194304 is above Linux's pid_max: never a live process.
    const dead = `${tmp}/${PROFILE_PREFIX}4194304-abc`;
    const alive = `${tmp}/${PROFILE_PREFIX}${Deno.pid}-def`;
    const other = `${tmp}/puppeteer_dev_chrome_profile-xyz`;
    for (const dir of [dead, alive, other]) await Deno.mkdir(`${dir}/Default`, { recursive: true });
    const removed = await sweepStaleProfiles(tmp);
    assert.deepEqual(removed, [dead]);
    const left = [...Deno.readDirSync(tmp)].map((e) => `${tmp}/${e.name}`).sort();
    assert.deepEqual(left, [alive, other].sort());
  } finally {
    await Deno.remove(tmp, { recursive: true });
  }
});

chromiumTest("a SIGKILLed Chromium's profile folder is removed", async (_t, chrome) => {
  const binding = createBrowser({ executablePath: chrome });
  try {
    const browser = await binding.get();
    const proc = browser.process()!;
    const args = proc.spawnargs.find((a) => a.startsWith("--user-data-dir="))!;
    const profile = args.slice("--user-data-dir=".length);
    assert.ok(profile.includes(`${PROFILE_PREFIX}${Deno.pid}-`), profile);
    assert.ok((await Deno.stat(profile)).isDirectory);
    const exited = new Promise((resolve) => proc.once("exit", resolve));
    proc.kill("SIGKILL");
    await exited;
    let gone = false;
    for (let i = 0; i < 50 && !gone; i++) {
      gone = await Deno.stat(profile).then(() => false, () => true);
      if (!gone) await new Promise((r) => setTimeout(r, 100));
    }
    assert.ok(gone, `profile ${profile} left behind`);
  } finally {
    await binding.close();
  }
});
