/**
 * A remote browser on loopback: a headless Chromium the test starts itself with
 * `--remote-debugging-port=0` on 127.0.0.1, reached over CDP through its `ws://` endpoint, as a
 * service with `BROWSER_WS_ENDPOINT` reaches Browserless or any CDP endpoint.
 */

/** A Chromium started by a test, reached over `BROWSER_WS_ENDPOINT`. */
export interface RemoteChromium {
  /** `ws://127.0.0.1:<port>/devtools/browser/<id>` */
  endpoint: string;
  /** The browser process id. */
  pid: number;
  /** SIGKILL, then removes its profile. */
  stop(): Promise<void>;
}

/**
 * A headless Chromium serving DevTools on a free loopback port, as a remote browser would
 * (`extraArgs` e.g. `--host-resolver-rules=MAP *.test 127.0.0.1`).
 */
export async function startRemoteChromium(
  chromePath: string,
  extraArgs: string[] = [],
): Promise<RemoteChromium> {
  const profile = await Deno.makeTempDir({ prefix: "screenshot-remote-" });
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
      ...extraArgs,
      "about:blank",
    ],
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const lines = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let seen = "";
  let endpoint: string | undefined;
  const deadline = setTimeout(() => child.kill("SIGKILL"), 20_000);
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
  })();
  if (!endpoint) throw new Error(`no DevTools endpoint in Chromium's stderr:\n${seen}`);
  let stopped = false;
  return {
    endpoint,
    pid: child.pid,
    async stop() {
      if (!stopped) child.kill("SIGKILL");
      stopped = true;
      await child.status;
      await drained;
      await Deno.remove(profile, { recursive: true }).catch(() => {});
    },
  };
}
