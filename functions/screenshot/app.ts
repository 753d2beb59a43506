/** The screenshot experiment's app: `GET /screenshot?url=` returns a PNG of the page. */
import { createRoute } from "@hono/zod-openapi";
import {
  createExperimentApp,
  type ExperimentApp,
  type ExperimentOptions,
} from "../../shared/contract/app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { isPublicHost } from "../../shared/net/address.ts";
import type { BrowserBinding } from "../../shared/bindings/browser/mod.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorResponses } from "../../shared/contract/openapi.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { DEFAULT_LIMITS, type ScreenshotLimits } from "./limits.ts";
import { PageSlots } from "./page_slots.ts";
import { PngSchema, ScreenshotQuery } from "./schema.ts";
import { ROOT } from "./root.ts";

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** The headless browser (`BROWSER`). */
  browser: BrowserBinding;
  /** Where the page and everything it loads may connect. */
  fetchPolicy: FetchPolicy;
  /** Overrides of `DEFAULT_LIMITS` (config.ts reads them from the environment; tests shorten them). */
  limits?: Partial<ScreenshotLimits>;
  /** Closes a launched browser at shutdown: it must not outlive the service. */
  close?(): Promise<void>;
}

/**
 * The capture (with its policy proxy on node:http and node:net), loaded by the first
 * `/screenshot` rather than at start-up, where it would cost every cold start
 * (bench/cold_start.ts); the first capture also launches the browser, which dwarfs it.
 */
const loadCapture = onFirstUse(() => import("./capture.ts"));

/** The cache header of every PNG (contract: public, 60 seconds). */
export const CACHE_CONTROL = "public, max-age=60";

const screenshotRoute = createRoute({
  method: "get",
  path: "/screenshot",
  summary: "Screenshot a web page",
  description: "Loads the page in a fresh incognito browser context (default viewport " +
    "1280x800), waits until the network is idle and returns a PNG. Every connection the page " +
    "makes is held to the address policy: private and reserved addresses are refused.",
  request: { query: ScreenshotQuery },
  responses: {
    200: {
      description: "The PNG screenshot",
      headers: {
        "Cache-Control": { schema: { type: "string", example: CACHE_CONTROL } },
      },
      content: { "image/png": { schema: PngSchema } },
    },
    ...errorResponses("INVALID_URL", "INVALID_INPUT", "SCREENSHOT_ERROR"),
  },
});

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const limits: ScreenshotLimits = { ...DEFAULT_LIMITS, ...bindings.limits };
  const slots = new PageSlots(
    limits.maxConcurrentPages,
    limits.maxQueuedPages,
    limits.queueTimeoutMs,
  );
  const policy = bindings.fetchPolicy;
  const app = createExperimentApp(ROOT, options);
  app.openapi(screenshotRoute, async (c) => {
    const { url, width, height, fullPage, deviceScaleFactor } = c.req.valid("query");
    const target = new URL(url);
    // The shared literal-host check: a private name or address is never even queued.
    const allowed = policy.allowPrivate || policy.allowOrigins?.has(target.origin) ||
      isPublicHost(target.hostname);
    if (!allowed) throw new ApiError("INVALID_URL", "URL host is a private or reserved address");

    const release = await slots.acquire();
    if (!release) throw new ApiError("SCREENSHOT_ERROR", "Browser busy");
    let png: Uint8Array;
    try {
      const { capture } = await loadCapture();
      png = await capture(
        { url, width, height, fullPage, deviceScaleFactor },
        // The capture is bounded by its deadline, not by the client: Deno.serve's
        // request.signal also fires on success (legacy abort), so it is left alone.
        { browser: bindings.browser, policy, limits },
      );
    } finally {
      release();
    }
    return c.body(png as Uint8Array<ArrayBuffer>, 200, {
      "Content-Type": "image/png",
      "Cache-Control": CACHE_CONTROL,
    });
  });
  return app;
}
