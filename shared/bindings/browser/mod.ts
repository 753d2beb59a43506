/**
 * The `BROWSER` binding: one headless Chromium shared by every request, reached over CDP with
 * puppeteer-core. It connects to `BROWSER_WS_ENDPOINT` when set (a remote, browserless-style
 * Chromium), otherwise launches a local one (`CHROME_PATH`, else found on the system). The
 * browser starts on first use and again after it died: a crash or a dropped connection only
 * fails the requests that were in flight.
 */
import type { Browser, PuppeteerNode } from "puppeteer-core";
import { type Env } from "../../contract/config.ts";
import { onFirstUse } from "../../contract/lazy.ts";
import { logEvent } from "../../contract/log.ts";

/**
 * puppeteer-core, loaded on the first launch or connect rather than at start-up: importing
 * it costs the service tens of milliseconds of cold start (bench/cold_start.ts) for a
 * browser that only the first capture needs.
 */
const loadPuppeteer = onFirstUse(() => import("puppeteer-core").then((m) => m.default));

/**
 * The policy proxy a launched browser's contexts go through (node:http and node:net), loaded
 * by the first capture rather than with the binding.
 */
export const loadPolicyProxy = onFirstUse(() => import("./policy_proxy.ts"));
export type { PolicyProxy } from "./policy_proxy.ts";

/**
 * The in-band guard a remote browser's contexts are held to (and the page script both modes
 * install), loaded by the first capture.
 */
export const loadCdpGuard = onFirstUse(() => import("./cdp_guard.ts"));
export type { ContextGuard, GuardFailure } from "./cdp_guard.ts";

/** How the binding reaches its browser. */
export type BrowserMode = "connect" | "launch";

/** The `BROWSER` binding. */
export interface BrowserBinding {
  /** `connect` (BROWSER_WS_ENDPOINT) or `launch` (local Chromium). */
  readonly mode: BrowserMode;
  /**
   * The shared browser, launched or connected on first use and again after it died.
   * Rejects with `BrowserUnavailableError` when no browser can be had.
   */
  get(): Promise<Browser>;
  /** Closes a launched browser, or drops the connection to a remote one. */
  close(): Promise<void>;
}

/** Where the binding finds its browser. */
export interface BrowserConfig {
  /** `ws://` / `wss://` DevTools endpoint of a running Chromium; wins over launching. */
  wsEndpoint?: string;
  /** Chromium binary to launch; auto-detected when absent. */
  executablePath?: string;
  /** Extra Chromium flags on launch. */
  args?: string[];
  /** Time for a launch or a connect to succeed (default `BROWSER_START_TIMEOUT_MS`). */
  startTimeoutMs?: number;
}

/** Time for a launch or a connect to succeed. */
export const BROWSER_START_TIMEOUT_MS = 20_000;

/** Time any single DevTools call may take before it fails (puppeteer's default is 180 s). */
export const PROTOCOL_TIMEOUT_MS = 30_000;

/**
 * Chromium flags of a launched browser, on top of puppeteer's defaults: no GPU, no
 * background traffic of its own, no QUIC (which would bypass an HTTP proxy), and WebRTC
 * held to the proxy (no direct UDP), so every byte a page sends goes through the context's
 * proxy.
 */
export const LAUNCH_ARGS: readonly string[] = [
  "--disable-gpu",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
  "--disable-quic",
  "--force-webrtc-ip-handling-policy=disable_non_proxied_udp",
];

/** Where Chromium usually lives, tried in order when `CHROME_PATH` is unset. */
export const CHROME_CANDIDATES: readonly string[] = [
  "/usr/bin/chromium",
  "/usr/bin/chromium-browser",
  "/usr/bin/google-chrome",
  "/usr/bin/google-chrome-stable",
  "/snap/bin/chromium",
  "/opt/google/chrome/chrome",
  "/Applications/Google Chrome.app/Contents/MacOS/Google Chrome",
  "/Applications/Chromium.app/Contents/MacOS/Chromium",
];

/**
 * Prefix of the profile folders of launched browsers, in the temp directory:
 * `<prefix><service pid>-<random>`. A Chromium killed with SIGKILL leaves its folder behind;
 * the next launch removes those whose service process is gone.
 */
export const PROFILE_PREFIX = "edge-screenshot-profile-";

/** Program names searched on `PATH` after the fixed candidates. */
const CHROME_NAMES = ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"];

/** No browser could be launched or connected; the message names what to configure. */
export class BrowserUnavailableError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = "BrowserUnavailableError";
  }
}

/** The first Chromium binary found on this machine, or null. */
export function findChrome(path: string | undefined = Deno.env.get("PATH")): string | null {
  const onPath = (path ?? "").split(":").filter(Boolean).flatMap((dir) =>
    CHROME_NAMES.map((name) => `${dir}/${name}`)
  );
  for (const candidate of [...CHROME_CANDIDATES, ...onPath]) {
    try {
      if (Deno.statSync(candidate).isFile) return candidate;
    } catch {
      // not here; try the next one
    }
  }
  return null;
}

/** Creates the binding; nothing starts until the first `get()`. */
export function createBrowser(config: BrowserConfig = {}): BrowserBinding {
  return new SharedBrowser(config);
}

/** The binding from `BROWSER_WS_ENDPOINT` (ws/wss URL) and `CHROME_PATH`. */
export function browserFromEnv(env: Env): BrowserBinding {
  return createBrowser({
    wsEndpoint: env.url("BROWSER_WS_ENDPOINT", ["ws:", "wss:"]),
    executablePath: env.string("CHROME_PATH"),
  });
}

/** One browser, started lazily, shared, and started again once it is gone. */
class SharedBrowser implements BrowserBinding {
  readonly mode: BrowserMode;
  #current: Promise<Browser> | null = null;
  #closed = false;

  constructor(private readonly config: BrowserConfig) {
    this.mode = config.wsEndpoint ? "connect" : "launch";
  }

  async get(): Promise<Browser> {
    if (this.#closed) throw new BrowserUnavailableError("Browser binding is closed");
    for (let attempt = 0; attempt < 2; attempt++) {
      const pending = this.#current ??= this.#start();
      const browser = await pending.catch((err) => {
        // A failed start is not cached: the next request tries again.
        if (this.#current === pending) this.#current = null;
        throw err;
      });
      if (browser.connected) return browser;
      // Died between its start and now, before 'disconnected' was seen: start a new one.
      if (this.#current === pending) this.#current = null;
    }
    throw new BrowserUnavailableError(`${this.#subject()} keeps disconnecting; ${this.#hint()}`);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#current;
    this.#current = null;
    const browser = await pending?.catch(() => null);
    if (!browser?.connected) return;
    if (this.mode === "connect") await browser.disconnect().catch(() => {});
    else await browser.close().catch(() => browser.process()?.kill("SIGKILL"));
  }

  async #start(): Promise<Browser> {
    const timeoutMs = this.config.startTimeoutMs ?? BROWSER_START_TIMEOUT_MS;
    // A launch takes seconds: say so, rather than leave the first request silent.
    const started = performance.now();
    logEvent({ event: "browser_starting", mode: this.mode, message: `${this.#subject()}…` });
    let browser: Browser;
    try {
      const puppeteer = await loadPuppeteer();
      browser = this.mode === "connect"
        ? await puppeteer.connect({
          browserWSEndpoint: this.config.wsEndpoint,
          defaultViewport: null,
          protocolTimeout: PROTOCOL_TIMEOUT_MS,
          wsOptions: { handshakeTimeout: timeoutMs, keepAlive: true },
        })
        : await this.#launch(puppeteer, timeoutMs);
    } catch (err) {
      if (err instanceof BrowserUnavailableError) throw err;
      logEvent({
        level: "error",
        event: "browser_start_failed",
        mode: this.mode,
        durationMs: Math.round(performance.now() - started),
        message: `${this.#subject()} failed: ${describe(err)}`,
      });
      throw new BrowserUnavailableError(`${this.#subject()} failed; ${this.#hint()}`, {
        cause: err,
      });
    }
    logEvent({
      event: "browser_started",
      mode: this.mode,
      durationMs: Math.round(performance.now() - started),
      pid: browser.process()?.pid,
    });
    browser.once("disconnected", () => {
      // Forget a dead browser so the next request starts a fresh one.
      if (this.#current && !this.#closed) {
        this.#current.then((b) => b === browser && (this.#current = null), () => {});
      }
    });
    return browser;
  }

  async #launch(puppeteer: PuppeteerNode, timeoutMs: number): Promise<Browser> {
    const executablePath = this.config.executablePath ?? findChrome();
    if (!executablePath) {
      throw new BrowserUnavailableError(`No browser available: ${this.#hint()}`);
    }
    await sweepStaleProfiles();
    // Our own profile folder (puppeteer's would have a name shared with every other user).
    const userDataDir = await Deno.makeTempDir({ prefix: `${PROFILE_PREFIX}${Deno.pid}-` });
    // Chromium refuses its sandbox as root (containers); elsewhere the sandbox stays on.
    const sandbox = Deno.uid() === 0 ? ["--no-sandbox"] : [];
    const browser = await puppeteer.launch({
      executablePath,
      headless: true,
      userDataDir,
      args: [...LAUNCH_ARGS, ...sandbox, ...(this.config.args ?? [])],
      defaultViewport: null,
      // DevTools over a pipe, not a WebSocket: the pipe closes when this process dies (even by
      // SIGKILL), and Chromium exits on that, where a WebSocket browser outlived the service.
      pipe: true,
      timeout: timeoutMs,
      protocolTimeout: PROTOCOL_TIMEOUT_MS,
      // The service decides what a signal means (main.ts closes the browser, then exits);
      // puppeteer's handlers would swallow SIGTERM.
      handleSIGINT: false,
      handleSIGTERM: false,
      handleSIGHUP: false,
    }).catch(async (err) => {
      await Deno.remove(userDataDir, { recursive: true }).catch(() => {});
      throw err;
    });
    // puppeteer only removes profiles it made itself: this one goes when the browser does.
    const proc = browser.process();
    proc?.once("exit", () => {
      // Chromium leads its own process group (puppeteer spawns it detached): its renderers and
      // crash handler outlive a SIGKILL of the main process and would write into the profile.
      if (proc.pid) {
        try {
          Deno.kill(-proc.pid, "SIGKILL");
        } catch { /* the group is gone already */ }
      }
      void removeProfile(userDataDir);
    });
    return browser;
  }

  #subject(): string {
    return this.mode === "connect" ? "Connecting to the remote browser" : "Launching Chromium";
  }

  #hint(): string {
    return this.mode === "connect"
      ? "check BROWSER_WS_ENDPOINT"
      : "set CHROME_PATH to a Chromium binary or BROWSER_WS_ENDPOINT to a remote browser";
  }
}

/**
 * Removes a profile folder, trying again for a few seconds: after a SIGKILL, Chromium's child
 * processes (renderer, crash handler) may still write into it while it is being removed.
 */
async function removeProfile(path: string): Promise<void> {
  for (let attempt = 0; attempt < 15; attempt++) {
    try {
      await Deno.remove(path, { recursive: true });
      return;
    } catch (err) {
      if (err instanceof Deno.errors.NotFound) return;
    }
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * Removes profile folders of launched browsers whose service process is gone (Linux: no
 * `/proc/<pid>`; elsewhere: older than a day). Failures are ignored: it is housekeeping.
 */
export async function sweepStaleProfiles(tmp = tempDir()): Promise<string[]> {
  const removed: string[] = [];
  const linux = Deno.build.os === "linux";
  try {
    for await (const entry of Deno.readDir(tmp)) {
      const pid = entry.name.startsWith(PROFILE_PREFIX)
        ? Number(entry.name.slice(PROFILE_PREFIX.length).split("-")[0])
        : NaN;
      if (!entry.isDirectory || !Number.isInteger(pid)) continue;
      const path = `${tmp}/${entry.name}`;
      const stale = linux
        ? !(await Deno.stat(`/proc/${pid}`).then(() => true, () => false))
        : Date.now() - ((await Deno.stat(path)).mtime?.getTime() ?? Date.now()) > 86_400_000;
      if (!stale || pid === Deno.pid) continue;
      await removeProfile(path);
      if (!(await Deno.stat(path).then(() => true, () => false))) removed.push(path);
    }
  } catch {
    // no temp directory to read: nothing to sweep
  }
  if (removed.length > 0) {
    logEvent({ level: "info", event: "browser_profiles_swept", count: removed.length });
  }
  return removed;
}

/** The temp directory as Deno.makeTempDir uses it. */
function tempDir(): string {
  return Deno.env.get("TMPDIR") || Deno.env.get("TMP") || Deno.env.get("TEMP") || "/tmp";
}

/** One line about a start failure (puppeteer's connect rejects with a bare ErrorEvent). */
function describe(err: unknown): string {
  if (err instanceof Error) return err.message;
  const event = err as { message?: unknown; error?: { message?: unknown } };
  const message = event?.error?.message ?? event?.message;
  return typeof message === "string" && message ? message : String(err);
}
