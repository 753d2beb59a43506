/**
 * One capture: a fresh incognito context whose traffic goes through its own policy proxy,
 * a page at the requested viewport, navigation until the network is idle, then a PNG. The
 * context and the proxy are closed on success and on failure (contract rule 6).
 */
import type { Browser, BrowserContext, Page } from "puppeteer-core";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import {
  type BrowserBinding,
  BrowserUnavailableError,
  loadPolicyProxy,
  type PolicyProxy,
} from "../../shared/bindings/browser/mod.ts";
import { normaliseHost } from "../../shared/net/address.ts";

import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import {
  DEFAULT_VIEWPORT,
  MAX_CAPTURE_DEVICE_PIXELS_HIGH,
  type ScreenshotLimits,
} from "./limits.ts";

// This module itself loads on the first capture, so the proxy (node:http, node:net) does too.
const { PROXY_ERROR_HEADER, startPolicyProxy } = await loadPolicyProxy();

/** What to capture. */
export interface CaptureRequest {
  /** Normalised absolute http(s) URL that passed the URL rule and the literal-host check. */
  url: string;
  width?: number;
  height?: number;
  fullPage?: boolean;
  deviceScaleFactor?: number;
}

/** Everything a capture works with. */
export interface CaptureDeps {
  browser: BrowserBinding;
  policy: FetchPolicy;
  limits: ScreenshotLimits;
}

/**
 * Chromium sends loopback requests straight out, even with a proxy set, unless the bypass
 * list subtracts its implicit rules: `<-loopback>` makes them go through the proxy too.
 */
const PROXY_BYPASS_LIST = ["<-loopback>"];

/** Time on top of navigation and capture for the context, the page and the viewport. */
const SETUP_ALLOWANCE_MS = 5_000;

function screenshotError(message: string): ApiError {
  return new ApiError("SCREENSHOT_ERROR", message);
}

/** Captures `request.url` as PNG bytes; every failure is a 502 SCREENSHOT_ERROR. */
export async function capture(request: CaptureRequest, deps: CaptureDeps): Promise<Uint8Array> {
  const { limits } = deps;
  let browser: Browser;
  try {
    browser = await deps.browser.get();
  } catch (err) {
    throw screenshotError(
      err instanceof BrowserUnavailableError
        ? err.message
        : "No browser available: set CHROME_PATH or BROWSER_WS_ENDPOINT",
    );
  }

  const proxy = await startPolicyProxy(deps.policy, {
    hostname: limits.proxyHost,
    maxBytes: limits.maxPageBytes,
  });
  const state: { context: BrowserContext | null; finished: boolean } = {
    context: null,
    finished: false,
  };
  const work = run(request, browser, proxy, limits, state);
  try {
    const ms = limits.navigationTimeoutMs + limits.captureTimeoutMs + SETUP_ALLOWANCE_MS;
    return await withDeadline(work, {
      ms,
      message: `Screenshot timed out after ${ms} ms`,
    });
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (!browser.connected) throw screenshotError("Browser disconnected during the capture");
    logEvent({ level: "error", event: "capture_failed", message: errorText(err) });
    throw screenshotError("Browser rendering failed");
  } finally {
    state.finished = true;
    // Closing the context also ends a capture the deadline left running.
    await state.context?.close().catch(() => {});
    await proxy.close();
  }
}

async function run(
  request: CaptureRequest,
  browser: Browser,
  proxy: PolicyProxy,
  limits: ScreenshotLimits,
  state: { context: BrowserContext | null; finished: boolean },
): Promise<Uint8Array> {
  const context = await browser.createBrowserContext({
    proxyServer: proxy.url,
    proxyBypassList: PROXY_BYPASS_LIST,
    downloadBehavior: { policy: "deny" },
  });
  state.context = context;
  if (state.finished) {
    // The deadline passed while the context was being made: the caller's cleanup missed it.
    await context.close().catch(() => {});
    throw screenshotError("Screenshot timed out");
  }
  const page = await context.newPage();
  // An alert() would block the page (and its network idle) forever.
  page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
  // Popups are not captured: close them (their traffic went through the proxy all the same)
  // so a page cannot open a hundred of them, nor push itself into the background.
  context.on("targetcreated", (target) => {
    if (target.type() !== "page" || target === page.target()) return;
    target.page().then((popup) => popup?.close()).catch(() => {});
  });
  const viewport = {
    width: request.width ?? DEFAULT_VIEWPORT.width,
    height: request.height ?? DEFAULT_VIEWPORT.height,
    deviceScaleFactor: request.deviceScaleFactor ?? DEFAULT_VIEWPORT.deviceScaleFactor,
  };
  await page.setViewport(viewport);

  let refusal: string | undefined;
  try {
    const response = await page.goto(request.url, {
      waitUntil: "networkidle0",
      timeout: limits.navigationTimeoutMs,
    });
    refusal = response?.headers()[PROXY_ERROR_HEADER];
  } catch (err) {
    throw navigationFailure(err, request.url, browser, proxy, limits);
  }
  // The main document (or a redirect hop of it) was refused or unreachable at the proxy.
  if (refusal) throw screenshotError(refusal);

  // A page in the background never produces a frame, and the capture would hang.
  await page.bringToFront();
  return await withDeadline(screenshot(page, viewport, request.fullPage ?? false), {
    ms: limits.captureTimeoutMs,
    message: `Screenshot capture timed out after ${limits.captureTimeoutMs} ms`,
  });
}

/** The PNG of the viewport, or of the whole page (cut at what Chromium can capture). */
async function screenshot(
  page: Page,
  viewport: { width: number; height: number; deviceScaleFactor: number },
  fullPage: boolean,
): Promise<Uint8Array> {
  if (!fullPage) return await page.screenshot({ type: "png" });
  const height = await fullPageHeight(page, viewport.height, viewport.deviceScaleFactor);
  return await page.screenshot({
    type: "png",
    clip: { x: 0, y: 0, width: viewport.width, height },
    captureBeyondViewport: true,
  });
}

/**
 * The page's content height in CSS pixels, at least the viewport's and at most what
 * Chromium can capture. Measured over CDP, not with page script the page could tamper with.
 */
async function fullPageHeight(page: Page, minHeight: number, scale: number): Promise<number> {
  const session = await page.createCDPSession();
  try {
    const metrics = await session.send("Page.getLayoutMetrics");
    const content = Math.ceil(metrics.cssContentSize.height);
    return Math.min(
      Math.max(content, minHeight),
      Math.floor(MAX_CAPTURE_DEVICE_PIXELS_HIGH / scale),
    );
  } finally {
    await session.detach().catch(() => {});
  }
}

/** The message of a failed navigation: what the proxy saw, a timeout, or Chromium's net error. */
function navigationFailure(
  err: unknown,
  url: string,
  browser: Browser,
  proxy: PolicyProxy,
  limits: ScreenshotLimits,
): ApiError {
  if (err instanceof ApiError) return err;
  if (!browser.connected) return screenshotError("Browser disconnected during the capture");
  const message = err instanceof Error ? err.message : String(err);
  if (err instanceof Error && err.name === "TimeoutError") {
    return screenshotError(`Navigation timed out after ${limits.navigationTimeoutMs} ms`);
  }
  const netError = message.match(/net::ERR_[A-Z_]+/)?.[0];
  if (netError === "net::ERR_PROXY_CONNECTION_FAILED") {
    return screenshotError(
      "The browser could not reach the screenshot proxy; set BROWSER_PROXY_HOST to an " +
        "address the browser can connect to",
    );
  }
  // The proxy knows why: the main host (or the hop that failed) was refused or unreachable.
  const host = normaliseHost(new URL(url).hostname);
  const failure = proxy.failures.findLast((f) => f.host === host) ?? proxy.failures.at(-1);
  if (failure && netError === "net::ERR_TUNNEL_CONNECTION_FAILED") {
    return screenshotError(failure.message);
  }
  return screenshotError(netError ? `Page failed to load: ${netError}` : "Page failed to load");
}

/** Settles with `work`, or rejects with a 502 `message` once `ms` have passed. */
function withDeadline<T>(
  work: Promise<T>,
  { ms, message }: { ms: number; message: string },
): Promise<T> {
  work.catch(() => {}); // a rejection after the deadline is expected and already handled
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(screenshotError(message)), ms);
    work.then(resolve, reject).finally(() => clearTimeout(timer));
  });
}
