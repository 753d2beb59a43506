/**
 * Chromium for the screenshot tests: where it is, and `chromiumTest`, which runs a test when
 * Chromium is there, fails it in CI (`CI=true`) when it is not, and otherwise skips it loudly.
 */
import {
  type BrowserBinding,
  createBrowser,
  findChrome,
} from "../../shared/bindings/browser/mod.ts";

/** `CHROME_PATH`, else the auto-detected Chromium, else null. */
export const CHROME_PATH: string | null = Deno.env.get("CHROME_PATH") || findChrome();

/** True under a CI runner, where a missing Chromium is a failure, not a skip. */
export const IN_CI = ["true", "1"].includes((Deno.env.get("CI") ?? "").toLowerCase());

/** Options passed through to `Deno.test`. */
export type ChromiumTestOptions = Pick<Deno.TestDefinition, "sanitizeOps" | "sanitizeResources">;

/** Registers a test that needs a real Chromium. */
export function chromiumTest(
  name: string,
  fn: (t: Deno.TestContext, chromePath: string) => Promise<void>,
  options: ChromiumTestOptions = {},
): void {
  const chromePath = CHROME_PATH;
  if (chromePath) {
    Deno.test({ name, fn: (t) => fn(t, chromePath), ...options });
    return;
  }
  if (IN_CI) {
    Deno.test(name, () => {
      throw new Error("Chromium not found and CI=true: install chromium or set CHROME_PATH");
    });
    return;
  }
  console.warn(`SKIPPING screenshot test "${name}": no Chromium found (set CHROME_PATH)`);
  Deno.test({ name, ignore: true, fn: () => {} });
}

/** A launched-mode binding on the test's Chromium. */
export function testBrowser(chromePath: string): BrowserBinding {
  return createBrowser({ executablePath: chromePath });
}

/** Browser contexts other than the default one, counted by Chromium itself over CDP. */
export async function openContexts(binding: BrowserBinding): Promise<number> {
  const browser = await binding.get();
  const session = await browser.target().createCDPSession();
  try {
    const { browserContextIds } = await session.send("Target.getBrowserContexts");
    return browserContextIds.length;
  } finally {
    await session.detach();
  }
}

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
