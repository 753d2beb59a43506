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
  quality: { min: 1, max: 100 },
} as const;

/** The cache header of every PNG (contract: public, 60 seconds). */
export const CACHE_CONTROL = "public, max-age=60";

/** Response header saying whether the image came from the in-process cache (HIT/MISS). */
export const CACHE_HEADER = "X-Screenshot-Cache";

/** Quality of a lossy capture when the request names none. */
export const DEFAULT_QUALITY = 80;

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
  /** Bytes of images the repeat cache keeps (`SCREENSHOT_CACHE_BYTES`, 0 = off). */
  cacheBytes: number;
  /**
   * Pages prepared ahead of requests, within the concurrency limit (`WARM_PAGES`; 1 from the
   * environment, 0 for an app built without limits, so tests count contexts exactly).
   */
  warmPages: number;
}

/** The limits when nothing is configured. */
export const DEFAULT_LIMITS: ScreenshotLimits = {
  maxConcurrentPages: 4,
  maxQueuedPages: 16,
  queueTimeoutMs: 10_000,
  navigationTimeoutMs: NAVIGATION_TIMEOUT_MS,
  captureTimeoutMs: CAPTURE_TIMEOUT_MS,
  maxPageBytes: MAX_PAGE_BYTES,
  cacheBytes: 32 * 1024 * 1024,
  warmPages: 0,
};

/** Warm pages when the environment says nothing. */
export const DEFAULT_WARM_PAGES = 1;

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
    cacheBytes: env.int("SCREENSHOT_CACHE_BYTES", DEFAULT_LIMITS.cacheBytes, 0, 1024 ** 3),
    warmPages: env.int("WARM_PAGES", DEFAULT_WARM_PAGES, 0, 8),
  };
}
