/** The screenshot experiment's named constants and the limits read from the environment. */
import type { Env } from "../../shared/contract/config.ts";

/** The viewport of a capture when the request names none (CSS pixels, scale 1). */
export const DEFAULT_VIEWPORT = { width: 1280, height: 800, deviceScaleFactor: 1 } as const;

/** Time for the page to load and its network to go idle (`NAVIGATION_TIMEOUT_MS`). */
export const NAVIGATION_TIMEOUT_MS = 20_000;

/** Time for the PNG itself once the page has settled. */
export const CAPTURE_TIMEOUT_MS = 15_000;

/**
 * Tallest full-page capture, in device pixels: Chromium's largest texture. Taller pages are
 * cut at this height (divided by the scale factor) instead of failing or eating the memory.
 */
export const MAX_CAPTURE_DEVICE_PIXELS_HIGH = 16_384;

/**
 * Bytes one capture may download in all (documents, subresources, media, WebSocket
 * traffic). Past it the page's connections are cut, and it is captured as far as it got.
 */
export const MAX_PAGE_BYTES = 50 * 1024 * 1024;

/** Accepted ranges of the query parameters. */
export const RANGES = {
  width: { min: 320, max: 3840 },
  height: { min: 200, max: 2160 },
  deviceScaleFactor: { min: 1, max: 3 },
} as const;

/** How much work the service takes on at once, and how long each part may take. */
export interface ScreenshotLimits {
  /** Pages open at once (`MAX_CONCURRENT_PAGES`, default 4). */
  maxConcurrentPages: number;
  /** Requests that may wait for a page (`MAX_QUEUED_PAGES`, default 16). */
  maxQueuedPages: number;
  /** How long a request may wait for a page (`PAGE_QUEUE_TIMEOUT_MS`, default 10 s). */
  queueTimeoutMs: number;
  /** Load + network idle (`NAVIGATION_TIMEOUT_MS`, default `NAVIGATION_TIMEOUT_MS`). */
  navigationTimeoutMs: number;
  /** The PNG capture after the page settled. */
  captureTimeoutMs: number;
  /** Download budget of one capture (`MAX_PAGE_BYTES`). */
  maxPageBytes: number;
  /**
   * Interface the per-request proxy listens on (`BROWSER_PROXY_HOST`, default 127.0.0.1);
   * a remote browser on another machine needs one it can reach.
   */
  proxyHost: string;
}

/** The limits when nothing is configured. */
export const DEFAULT_LIMITS: ScreenshotLimits = {
  maxConcurrentPages: 4,
  maxQueuedPages: 16,
  queueTimeoutMs: 10_000,
  navigationTimeoutMs: NAVIGATION_TIMEOUT_MS,
  captureTimeoutMs: CAPTURE_TIMEOUT_MS,
  maxPageBytes: MAX_PAGE_BYTES,
  proxyHost: "127.0.0.1",
};

/** The limits from the environment; a malformed value throws ConfigError naming it. */
export function limitsFromEnv(env: Env): ScreenshotLimits {
  return {
    maxConcurrentPages: env.int("MAX_CONCURRENT_PAGES", DEFAULT_LIMITS.maxConcurrentPages, 1, 64),
    maxQueuedPages: env.int("MAX_QUEUED_PAGES", DEFAULT_LIMITS.maxQueuedPages, 0, 10_000),
    queueTimeoutMs: env.int("PAGE_QUEUE_TIMEOUT_MS", DEFAULT_LIMITS.queueTimeoutMs, 0, 120_000),
    navigationTimeoutMs: env.int(
      "NAVIGATION_TIMEOUT_MS",
      DEFAULT_LIMITS.navigationTimeoutMs,
      1_000,
      120_000,
    ),
    captureTimeoutMs: DEFAULT_LIMITS.captureTimeoutMs,
    maxPageBytes: DEFAULT_LIMITS.maxPageBytes,
    proxyHost: env.string("BROWSER_PROXY_HOST", DEFAULT_LIMITS.proxyHost),
  };
}
