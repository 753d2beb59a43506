/**
 * `deno task dev` (scripts/dev.ts) as a user runs it: started as a process on free ports, then
 * stopped with SIGTERM or SIGINT. Afterwards no process that was below it (services, and the
 * Chromium that a screenshot launched) may remain, and no port may still be served. A service
 * that dies is reported and restarted.
 */
import assert from "node:assert/strict";
import { STOP_GRACE_MS } from "../../scripts/dev.ts";
import { descendants, type ProcessRef, stillRunning } from "../../scripts/process_tree.ts";
import { REFERENCE_FACTOR } from "../support/deadline_race.ts";
import { chromiumTest } from "../screenshot/chromium.ts";

const ROOT = new URL("../../", import.meta.url);
/** Services on a loaded machine may take this long to answer their first request. */
const UP_TIMEOUT_MS = 60_000;
/**
 * The runner must be gone, and everything below it, before this reference passes after the
 * signal: its own STOP_GRACE_MS ends in SIGKILL, so only a runner that does not stop loses.
 */
const STOP_BOUND_MS = REFERENCE_FACTOR * STOP_GRACE_MS;

/** Ports nothing listens on right now. */
function freePorts(n: number): number[] {
  const listeners = Array.from(
    { length: n },
    () => Deno.listen({ hostname: "127.0.0.1", port: 0 }),
  );
  const ports = listeners.map((l) => (l.addr as Deno.NetAddr).port);
  for (const l of listeners) l.close();
  return ports;
}

/** A started runner and what it printed. */
interface Runner {
  child: Deno.ChildProcess;
  output(): string;
  done: Promise<void>;
}

function startRunner(args: string[], env: Record<string, string>): Runner {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/dev.ts", ...args],
    cwd: ROOT,
    env: { NO_COLOR: "1", ...env },
    stdin: "null",
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  let out = "";
  const collect = async (stream: ReadableStream<Uint8Array<ArrayBuffer>>) => {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) out += chunk;
  };
  const done = Promise.all([collect(child.stdout), collect(child.stderr)]).then(() => {});
  return { child, output: () => out, done };
}

/** Polls `check` every 200 ms until it is true or `ms` pass; false on timeout. */
async function waitFor(check: () => Promise<boolean> | boolean, ms: number): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

/** Whether `GET http://127.0.0.1:<port>/` answers 200. */
async function serves(port: number): Promise<boolean> {
  try {
    const res = await fetch(`http://127.0.0.1:${port}/`, { signal: AbortSignal.timeout(2_000) });
    await res.body?.cancel();
    return res.status === 200;
  } catch {
    return false;
  }
}

/** Whether anything accepts a connection on the port. */
async function listening(port: number): Promise<boolean> {
  try {
    const conn = await Deno.connect({ hostname: "127.0.0.1", port });
    conn.close();
    return true;
  } catch {
    return false;
  }
}

/** A process's command line (Linux), or "" when unknown. */
function commandLine(pid: number): string {
  try {
    return Deno.readTextFileSync(`/proc/${pid}/cmdline`).replaceAll("\0", " ");
  } catch {
    return "";
  }
}

/**
 * Sends `signal` to the runner and asserts that it exits, that every process of `tree` ends
 * and that no port of `ports` is still listened on, all within STOP_BOUND_MS.
 */
async function assertStopsAll(
  runner: Runner,
  signal: Deno.Signal,
  tree: ProcessRef[],
  ports: number[],
) {
  const started = Date.now();
  runner.child.kill(signal);
  const exited = await Promise.race([
    runner.child.status.then(() => true),
    new Promise<false>((r) => setTimeout(() => r(false), STOP_BOUND_MS)),
  ]);
  if (!exited) runner.child.kill("SIGKILL");
  assert.ok(exited, `runner still running ${STOP_BOUND_MS} ms after ${signal}`);
  const left = Math.max(0, STOP_BOUND_MS - (Date.now() - started));
  const allGone = await waitFor(async () => (await stillRunning(tree)).length === 0, left);
  const survivors = (await stillRunning(tree)).map((p) => `${p.pid} ${commandLine(p.pid)}`);
  assert.ok(allGone, `still running after ${signal}:\n${survivors.join("\n")}`);
  for (const port of ports) assert.ok(!(await listening(port)), `port ${port} still served`);
  await runner.done;
  assert.match(runner.output(), /all stopped/);
}

chromiumTest(
  "SIGTERM to the dev runner stops every service and the Chromium a screenshot launched",
  async (_t, chromePath) => {
    const ports = freePorts(2);
    const [shotPort, pagePort] = ports;
    const dataDir = await Deno.makeTempDir({ prefix: "dev_test_" });
    const runner = startRunner(
      ["dependency-analyzer", "screenshot", `--ports=${pagePort},${shotPort}`],
      { CHROME_PATH: chromePath, ALLOW_PRIVATE_NETWORKS: "true", DATA_DIR: dataDir },
    );
    let tree: ProcessRef[] = [];
    try {
      const up = await waitFor(
        async () => await serves(shotPort) && await serves(pagePort),
        UP_TIMEOUT_MS,
      );
      assert.ok(up, `services did not come up:\n${runner.output()}`);
      // A screenshot of the analyzer's root document launches Chromium under the service.
      const target = encodeURIComponent(`http://127.0.0.1:${pagePort}/`);
      const res = await fetch(`http://127.0.0.1:${shotPort}/screenshot?url=${target}`, {
        signal: AbortSignal.timeout(UP_TIMEOUT_MS),
      });
      assert.equal(res.status, 200, await res.clone().text());
      await res.body?.cancel();
      tree = await descendants(runner.child.pid);
      if (Deno.build.os === "linux") {
        const browsers = tree.filter((p) => /chrom/i.test(commandLine(p.pid)));
        assert.ok(browsers.length > 0, "Chromium runs below the runner");
      }
    } catch (err) {
      runner.child.kill("SIGKILL");
      throw err;
    } finally {
      if (tree.length === 0) tree = await descendants(runner.child.pid).catch(() => []);
    }
    await assertStopsAll(runner, "SIGTERM", tree, ports);
    await Deno.remove(dataDir, { recursive: true }).catch(() => {});
  },
  { sanitizeOps: false, sanitizeResources: false },
);

Deno.test({
  name: "the dev runner reports a service that dies, restarts it, and SIGINT stops all",
  sanitizeOps: false,
  sanitizeResources: false,
  fn: async () => {
    const ports = freePorts(2);
    const dataDir = await Deno.makeTempDir({ prefix: "dev_test_" });
    const runner = startRunner(
      ["dependency-analyzer", "link-shortener", `--ports=${ports.join(",")}`],
      { DATA_DIR: dataDir },
    );
    try {
      const up = await waitFor(
        async () => await serves(ports[0]) && await serves(ports[1]),
        UP_TIMEOUT_MS,
      );
      assert.ok(up, `services did not come up:\n${runner.output()}`);
      // Both listen on loopback only, as the table says.
      assert.match(runner.output(), /Listening on 127\.0\.0\.1 \(this machine only/);

      const tree = await descendants(runner.child.pid);
      const analyzer = tree.find((p) =>
        commandLine(p.pid).includes("functions/dependency-analyzer/main.ts")
      );
      assert.ok(analyzer, "the analyzer runs below the runner");
      Deno.kill(analyzer.pid, "SIGKILL");
      const reported = await waitFor(
        () =>
          /dependency-analyzer was killed \(SIGKILL\).*is down; restarting/.test(runner.output()),
        STOP_BOUND_MS,
      );
      assert.ok(reported, `no report of the death:\n${runner.output()}`);
      const back = await waitFor(() => serves(ports[0]), UP_TIMEOUT_MS);
      assert.ok(back, `not restarted:\n${runner.output()}`);
      await assertStopsAll(runner, "SIGINT", await descendants(runner.child.pid), ports);
    } catch (err) {
      runner.child.kill("SIGKILL");
      throw err;
    } finally {
      await Deno.remove(dataDir, { recursive: true }).catch(() => {});
    }
  },
});
