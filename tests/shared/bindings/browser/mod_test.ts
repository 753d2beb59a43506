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
import { withRequestLog } from "../../../../shared/contract/log.ts";
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

chromiumTest("a launched Chromium does not outlive a SIGKILLed service", async (_t, chrome) => {
  const child = new Deno.Command(Deno.execPath(), {
    args: [
      "run",
      "-A",
      new URL("../../../support/launch_browser_child.ts", import.meta.url).pathname,
      chrome,
    ],
    stdout: "piped",
    stderr: "inherit",
  }).spawn();
  const reader = child.stdout.pipeThrough(new TextDecoderStream()).getReader();
  let out = "";
  while (!out.includes("\n")) {
    const { value, done } = await reader.read();
    if (done) break;
    out += value;
  }
  const pid = Number(out.trim());
  assert.ok(pid > 0, `child printed ${JSON.stringify(out)}`);
  const alive = () => Deno.stat(`/proc/${pid}`).then(() => true, () => false);
  assert.ok(await alive(), "Chromium is running before the kill");
  child.kill("SIGKILL");
  await child.status;
  await reader.cancel();
  // Polls up to 10 s: Chromium notices the closed DevTools pipe and shuts down on its own.
  let gone = false;
  for (let i = 0; i < 100 && !gone; i++) {
    gone = !(await alive());
    if (!gone) await new Promise((r) => setTimeout(r, 100));
  }
  if (!gone) Deno.kill(-pid, "SIGKILL");
  assert.ok(gone, `Chromium ${pid} outlived its service`);
});

chromiumTest(
  "a Chromium launch is logged when it starts and when it is up, with its duration",
  async (_t, chromePath) => {
    const lines: Record<string, unknown>[] = [];
    const sink = (line: string) => lines.push(JSON.parse(line));
    const binding = createBrowser({ executablePath: chromePath });
    try {
      await withRequestLog("req-1", sink, () => binding.get());
    } finally {
      await binding.close();
    }
    const starting = lines.find((l) => l.event === "browser_starting");
    const started = lines.find((l) => l.event === "browser_started");
    assert.ok(starting && started, JSON.stringify(lines));
    assert.equal(starting.mode, "launch");
    assert.equal(starting.requestId, "req-1");
    assert.ok(lines.indexOf(starting) < lines.indexOf(started));
    assert.equal(typeof started.durationMs, "number");
    assert.ok((started.durationMs as number) > 0);
    assert.equal(typeof started.pid, "number");
  },
  { sanitizeOps: false, sanitizeResources: false },
);

Deno.test("a failed launch is logged with what failed", async () => {
  const lines: Record<string, unknown>[] = [];
  const sink = (line: string) => lines.push(JSON.parse(line));
  const binding = createBrowser({ executablePath: "/nonexistent/chromium", startTimeoutMs: 5_000 });
  await withRequestLog("req-2", sink, async () => {
    await assert.rejects(binding.get());
  });
  await binding.close();
  const failed = lines.find((l) => l.event === "browser_start_failed");
  assert.ok(failed, JSON.stringify(lines));
  assert.equal(failed.level, "error");
  assert.equal(failed.requestId, "req-2");
  assert.match(String(failed.message), /nonexistent/);
});
