/**
 * One capture: a fresh incognito context held to the address policy, a page at the
 * requested viewport (or a device preset), navigation until the network is idle (ad and
 * tracker requests aborted, cookie banners and ad slots hidden, when asked), lazy content
 * scrolled in for a full page, then the image or the PDF. A launched (local)
 * Chromium's context sends its traffic through its own policy proxy; a remote one
 * (`BROWSER_WS_ENDPOINT`) is guarded in-band over CDP, so the service opens no listener.
 * Either way the page script of the guard removes WebRTC before any page script runs. The
 * context and the proxy are closed on success and on failure (contract rule 6).
 */
import { type Browser, type BrowserContext, KnownDevices, type Page } from "puppeteer-core";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import {
  type BrowserBinding,
  BrowserUnavailableError,
  type ContextGuard,
  loadCdpGuard,
  loadPolicyProxy,
  type PolicyProxy,
} from "../../shared/bindings/browser/mod.ts";
import { normaliseHost } from "../../shared/net/address.ts";
import { withDeadline } from "../../shared/bindings/deadline.ts";
import { NetworkIdle } from "./network_idle.ts";
import type { WarmPages } from "./warm_pages.ts";
import type { ImageFormat, Paper } from "./schema.ts";
import type { FiltersEngine } from "@ghostery/adblocker";
import { blockRequests, hideElements, loadBlocklist } from "./content_blocking.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import {
  DEFAULT_VIEWPORT,
  MAX_CAPTURE_DEVICE_PIXELS_HIGH,
  type ScreenshotLimits,
} from "./limits.ts";

// This module itself loads on the first capture, so the guards (node:http, node:net) do too.
const { PROXY_ERROR_HEADER, startPolicyProxy } = await loadPolicyProxy();
const { guardContext } = await loadCdpGuard();

/** What to capture. */
export interface CaptureRequest {
  /** Normalised absolute http(s) URL that passed the URL rule and the literal-host check. */
  url: string;
  width?: number;
  height?: number;
  fullPage?: boolean;
  deviceScaleFactor?: number;
  /** Output format (default png). */
  format?: ImageFormat;
  /** Paper size of a PDF (default a4). */
  paper?: Paper;
  /** Print a PDF in landscape. */
  landscape?: boolean;
  /** Hide cookie-consent banners and overlays. */
  hideCookieBanners?: boolean;
  /** Block ad and tracker requests and hide ad slots. */
  blockAds?: boolean;
  /** A device preset (a name of `DEVICES`): its viewport, scale, touch and user agent. */
  device?: string;
  /** Quality of jpeg/webp. */
  quality?: number;
  /** Emulated `prefers-color-scheme`. */
  colorScheme?: "light" | "dark";
  /** Emulate `prefers-reduced-motion: reduce`. */
  reducedMotion?: boolean;
  /** Transparent default background (png/webp). */
  omitBackground?: boolean;
  /** CSS selector of the one element to capture. */
  selector?: string;
  /** After network idle: milliseconds to wait, or a CSS selector that must appear. */
  waitFor?: number | string;
}

/** Everything a capture works with. */
export interface CaptureDeps {
  browser: BrowserBinding;
  policy: FetchPolicy;
  limits: ScreenshotLimits;
  /** Pages prepared ahead of requests (taken when there is one for this browser). */
  warm?: WarmPages<Prepared>;
}

/** A guarded context with a blank page, ready to navigate (made per capture, or ahead). */
export interface Prepared {
  browser: Browser;
  proxy: PolicyProxy | null;
  context: BrowserContext;
  guard: ContextGuard;
  page: Page;
}

/**
 * Chromium sends loopback requests straight out, even with a proxy set, unless the bypass
 * list subtracts its implicit rules: `<-loopback>` makes them go through the proxy too.
 */
const PROXY_BYPASS_LIST = ["<-loopback>"];

/** Chromium's errors for a request a guard refused (proxy CONNECT, or CDP failRequest). */
const GUARD_NET_ERRORS = new Set([
  "net::ERR_TUNNEL_CONNECTION_FAILED",
  "net::ERR_ACCESS_DENIED",
  "net::ERR_NAME_NOT_RESOLVED",
]);

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

  const state: CaptureState = { prepared: null, finished: false };
  const work = run(request, browser, deps, state);
  try {
    const ms = limits.navigationTimeoutMs + limits.captureTimeoutMs + SETUP_ALLOWANCE_MS;
    return await withDeadline(
      work,
      ms,
      () => screenshotError(`Screenshot timed out after ${ms} ms`),
    );
  } catch (err) {
    if (err instanceof ApiError) throw err;
    if (!browser.connected) throw screenshotError("Browser disconnected during the capture");
    logEvent({ level: "error", event: "capture_failed", message: errorText(err) });
    throw screenshotError("Browser rendering failed");
  } finally {
    state.finished = true;
    // Closing the context also ends a capture the deadline left running.
    if (state.prepared) await dispose(state.prepared);
  }
}

/** What the cleanup of a capture must close, filled in as the capture goes. */
interface CaptureState {
  prepared: Prepared | null;
  finished: boolean;
}

/**
 * A fresh incognito context held to the policy (its own proxy for a launched browser; the
 * in-band guard for a remote one, which cannot be expected to reach a listener of ours) and
 * a blank page in it, guarded before it may load anything.
 */
export async function prepare(browser: Browser, deps: CaptureDeps): Promise<Prepared> {
  const inband = deps.browser.mode === "connect";
  const proxy = inband
    ? null
    : await startPolicyProxy(deps.policy, { maxBytes: deps.limits.maxPageBytes });
  let context: BrowserContext | undefined;
  let guard: ContextGuard | undefined;
  try {
    context = await browser.createBrowserContext({
      ...(proxy ? { proxyServer: proxy.url, proxyBypassList: PROXY_BYPASS_LIST } : {}),
      downloadBehavior: { policy: "deny" },
    });
    if (!context.id) throw screenshotError("Browser context has no id");
    guard = await guardContext(browser, context.id, {
      mode: proxy ? "script" : "inband",
      policy: deps.policy,
      maxBytes: deps.limits.maxPageBytes,
    });
    const page = await context.newPage();
    // Held by the guard until its checks and its page script are in place.
    await guard.ready(targetIdOf(page));
    // An alert() would block the page (and its network idle) forever.
    page.on("dialog", (dialog) => void dialog.dismiss().catch(() => {}));
    // Popups are not captured: close them (their traffic went through the guard all the
    // same) so a page cannot open a hundred of them, nor push itself into the background.
    context.on("targetcreated", (target) => {
      if (target.type() !== "page" || target === page.target()) return;
      target.page().then((popup) => popup?.close()).catch(() => {});
    });
    return { browser, proxy, context, guard, page };
  } catch (err) {
    await context?.close().catch(() => {});
    guard?.close();
    await proxy?.close();
    throw err;
  }
}

/** Closes a prepared context, its guard and its proxy. */
export async function dispose(prepared: Prepared): Promise<void> {
  await prepared.context.close().catch(() => {});
  prepared.guard.close();
  await prepared.proxy?.close();
}

async function run(
  request: CaptureRequest,
  browser: Browser,
  deps: CaptureDeps,
  state: CaptureState,
): Promise<Uint8Array> {
  const { limits } = deps;
  const prepared = (await deps.warm?.take(browser)) ?? await prepare(browser, deps);
  if (state.finished) {
    // The deadline passed while the context was being made: the caller's cleanup missed it.
    await dispose(prepared);
    throw screenshotError("Screenshot timed out");
  }
  state.prepared = prepared;
  const { page, guard, proxy } = prepared;
  const device = request.device
    ? KnownDevices[request.device as keyof typeof KnownDevices]
    : undefined;
  const viewport = device
    ? {
      width: device.viewport.width,
      height: device.viewport.height,
      deviceScaleFactor: device.viewport.deviceScaleFactor ?? 1,
    }
    : {
      width: request.width ?? DEFAULT_VIEWPORT.width,
      height: request.height ?? DEFAULT_VIEWPORT.height,
      deviceScaleFactor: request.deviceScaleFactor ?? DEFAULT_VIEWPORT.deviceScaleFactor,
    };
  // A device also brings its user agent, touch and mobile layout.
  if (device) await page.emulate(device);
  else await page.setViewport(viewport);
  const media = [
    ...(request.colorScheme ? [{ name: "prefers-color-scheme", value: request.colorScheme }] : []),
    ...(request.reducedMotion ? [{ name: "prefers-reduced-motion", value: "reduce" }] : []),
  ];
  if (media.length > 0) await page.emulateMediaFeatures(media);

  const blocklists = await loadBlocklists(request);
  if (blocklists.length > 0) await blockRequests(page, blocklists);

  let refusal: string | undefined;
  const started = performance.now();
  // Counting from before the navigation: the document's own subresources count too.
  const network = new NetworkIdle(page);
  try {
    try {
      const response = await page.goto(request.url, {
        waitUntil: "load",
        timeout: limits.navigationTimeoutMs,
      });
      refusal = response?.headers()[PROXY_ERROR_HEADER];
    } catch (err) {
      const failures = [...proxy?.failures ?? [], ...guard.failures];
      throw navigationFailure(err, request.url, browser, failures, limits);
    }
    // The main document (or a redirect hop of it) was refused or unreachable at the proxy.
    if (refusal) throw screenshotError(refusal);
    const timedOut = `Navigation timed out after ${limits.navigationTimeoutMs} ms`;
    const left = () => Math.max(0, limits.navigationTimeoutMs - (performance.now() - started));
    await withDeadline(network.idle(), left(), () => screenshotError(timedOut));
    if (request.waitFor !== undefined) await waitFor(page, request.waitFor, left());
  } finally {
    network.dispose();
  }

  if (blocklists.length > 0) await hideElements(page, blocklists);
  // A page in the background never produces a frame, and the capture would hang.
  await page.bringToFront();
  if (request.fullPage && !request.selector && request.format !== "pdf") {
    await drawLazyContent(page, viewport.height, viewport.deviceScaleFactor);
  }
  const png = await withDeadline(
    screenshot(page, viewport, request),
    limits.captureTimeoutMs,
    () => screenshotError(`Screenshot capture timed out after ${limits.captureTimeoutMs} ms`),
  );
  // A response from a private address (DNS rebinding past the in-band check): no image.
  if (guard.violation) throw screenshotError(guard.violation);
  return png;
}

/** The engines the request asks for (each read once per process). */
function loadBlocklists(request: CaptureRequest): Promise<FiltersEngine[]> {
  return Promise.all([
    ...(request.blockAds ? [loadBlocklist("ads")] : []),
    ...(request.hideCookieBanners ? [loadBlocklist("cookies")] : []),
  ]);
}

/** Waits `waitFor` ms, or until the selector `waitFor` matches; bounded by `ms`. */
async function waitFor(page: Page, what: number | string, ms: number): Promise<void> {
  if (typeof what === "number") {
    await new Promise((resolve) => setTimeout(resolve, Math.min(what, ms)));
    return;
  }
  try {
    await page.waitForSelector(what, { timeout: Math.max(1, ms) });
  } catch (err) {
    if (err instanceof Error && err.name === "TimeoutError") {
      throw screenshotError(`waitFor: no element matched ${what} in time`);
    }
    throw new ApiError("INVALID_INPUT", "waitFor is not a valid CSS selector");
  }
}

/** The CDP target id of a page (puppeteer keeps it on the target). */
function targetIdOf(page: Page): string {
  return (page.target() as unknown as { _targetId: string })._targetId;
}

/**
 * The image of the viewport, of one element (`selector`), or of the whole page (cut at what
 * Chromium can capture).
 */
async function screenshot(
  page: Page,
  viewport: { width: number; height: number; deviceScaleFactor: number },
  request: CaptureRequest,
): Promise<Uint8Array> {
  if (request.format === "pdf") {
    return await page.pdf({
      format: request.paper ?? "a4",
      landscape: request.landscape ?? false,
      printBackground: true,
      // The capture's own deadline bounds it.
      timeout: 0,
    });
  }
  const options = {
    type: (request.format ?? "png") as "png" | "jpeg" | "webp",
    ...(request.quality !== undefined ? { quality: request.quality } : {}),
    omitBackground: request.omitBackground ?? false,
  } as const;
  if (request.selector) {
    let element;
    try {
      element = await page.$(request.selector);
    } catch {
      throw new ApiError("INVALID_INPUT", "selector is not a valid CSS selector");
    }
    if (!element) throw screenshotError(`No element matches ${request.selector}`);
    try {
      return await element.screenshot(options);
    } finally {
      await element.dispose().catch(() => {});
    }
  }
  if (!request.fullPage) return await page.screenshot(options);
  const height = await fullPageHeight(page, viewport.height, viewport.deviceScaleFactor);
  return await page.screenshot({
    ...options,
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

/** How long scrolling through a page for its lazy content may take in all. */
export const LAZY_SCROLL_BUDGET_MS = 5_000;

/** How long one scroll step may wait for the page's frames. */
const SCROLL_STEP_MS = 250;

/**
 * Scrolls the page down one viewport at a time, so that lazily loaded images
 * (`loading="lazy"`) and sections revealed by an IntersectionObserver start loading, waits
 * for the network to go quiet again, and scrolls back to the top: the capture then draws
 * them, with sticky and fixed headers where they sit at the top (once). Bounded by
 * `LAZY_SCROLL_BUDGET_MS` whatever the page does (a page that keeps growing is followed only
 * down to the tallest capture).
 */
async function drawLazyContent(page: Page, viewportHeight: number, scale: number): Promise<void> {
  const started = performance.now();
  const left = () => LAZY_SCROLL_BUDGET_MS - (performance.now() - started);
  const network = new NetworkIdle(page);
  try {
    const limit = Math.floor(MAX_CAPTURE_DEVICE_PIXELS_HIGH / scale);
    for (let y = viewportHeight; left() > 0; y += viewportHeight) {
      const height = Math.min(await fullPageHeight(page, viewportHeight, scale), limit);
      if (y >= height) break;
      await withDeadline(
        scrollAndPaint(page, y),
        Math.max(1, Math.min(SCROLL_STEP_MS, left())),
        () => new Error("scroll step"),
      ).catch(() => {}); // a page that holds its frames is captured as far as it got
    }
    await withDeadline(network.idle(), Math.max(1, left()), () => new Error("lazy"))
      .catch(() => {});
  } finally {
    network.dispose();
  }
  await withDeadline(scrollAndPaint(page, 0), SCROLL_STEP_MS, () => new Error("scroll back"))
    .catch(() => {});
}

/** Scrolls to `y` and resolves after two frames (IntersectionObserver callbacks ran). */
function scrollAndPaint(page: Page, y: number): Promise<void> {
  return page.evaluate((top) => {
    globalThis.scrollTo(0, top);
    return new Promise<void>((resolve) =>
      requestAnimationFrame(() => requestAnimationFrame(() => resolve()))
    );
  }, y);
}

/** The message of a failed navigation: what the proxy saw, a timeout, or Chromium's net error. */
function navigationFailure(
  err: unknown,
  url: string,
  browser: Browser,
  failures: readonly { host: string; message: string }[],
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
    return screenshotError("The browser could not reach the screenshot proxy");
  }
  // The guard knows why: the main host (or the hop that failed) was refused or unreachable.
  const host = normaliseHost(new URL(url).hostname);
  const failure = failures.findLast((f) => f.host === host) ?? failures.at(-1);
  if (failure && netError && GUARD_NET_ERRORS.has(netError)) {
    return screenshotError(failure.message);
  }
  return screenshotError(netError ? `Page failed to load: ${netError}` : "Page failed to load");
}
