/**
 * A remote browser on loopback: a headless Chromium the test starts itself with
 * `--remote-debugging-port=0` on 127.0.0.1, reached over CDP through its `ws://` endpoint, as a
 * service with `BROWSER_WS_ENDPOINT` reaches Browserless or any CDP endpoint.
 */

/** A running remote Chromium. */
export interface RemoteChromium {
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>`: the `BROWSER_WS_ENDPOINT`. */
  endpoint: string;
  /** Kills Chromium and removes its profile. */
  stop(): Promise<void>;
}

/** How long Chromium may take to print its DevTools endpoint. */
const START_DEADLINE_MS = 20_000;

/** Starts Chromium (`chromePath`) with DevTools on a free loopback port. */
export async function startRemoteChromium(chromePath: string): Promise<RemoteChromium> {
  const profile = await Deno.makeTempDir({ prefix: "remote-chromium-" });
  const child = new Deno.Command(chromePath, {
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      "--disable-quic",
      "--remote-debugging-address=127.0.0.1",
      "--remote-debugging-port=0",
      `--user-data-dir=${profile}`,
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let endpoint: string | undefined;
  const deadline = setTimeout(() => child.kill("SIGKILL"), START_DEADLINE_MS);
  while (!endpoint) {
    const { value, done } = await lines.read();
    if (done) break;
    seen += value;
    endpoint = seen.match(/DevTools listening on (ws:\/\/\S+)/)?.[1];
  }
  clearTimeout(deadline);
  // Keep draining stderr, or Chromium blocks on a full pipe.
  const drained = (async () => {
    while (!(await lines.read()).done);
  })().catch(() => {});
  let stopped = false;
  const stop = async () => {
    if (!stopped) {
      stopped = true;
      try {
        child.kill("SIGKILL");
      } catch {
        // already gone
      }
    }
    await child.status;
    await drained;
    await Deno.remove(profile, { recursive: true }).catch(() => {});
  };
  if (!endpoint) {
    await stop();
    throw new Error(`no DevTools endpoint in Chromium's stderr:\n${seen}`);
  }
  return { endpoint, stop };
}
