/** The screenshot experiment's app: `GET /screenshot?url=` returns a PNG of the page. */
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { isPublicHost } from "../../shared/net/address.ts";
import type { BrowserBinding } from "../../shared/bindings/browser/mod.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { Admission, admitted } from "../../shared/contract/admission.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { type FetchPolicy, privateHostError } from "../../shared/net/safe_fetch.ts";
import {
  CACHE_CONTROL,
  CACHE_HEADER,
  DEFAULT_LIMITS,
  DEFAULT_QUALITY,
  type ScreenshotLimits,
} from "./limits.ts";
import { WarmPages } from "./warm_pages.ts";
import type { CaptureDeps, CaptureRequest, Prepared } from "./capture.ts";
import { FORMATS, SCREENSHOT_QUERY } from "./schema.ts";
import { type CachedCapture, CaptureCache, etagOf, matchesIfNoneMatch } from "./capture_cache.ts";
import { ROOT } from "./root.ts";

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** The headless browser (`BROWSER`). */
  BROWSER: BrowserBinding;
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

/** The response headers every capture carries (limits.ts: the document names them too). */
export { CACHE_CONTROL, CACHE_HEADER };

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "screenshot_page",
    operationId: "capturePage",
    description:
      "Load a public web page in a headless browser and return a screenshot as an image " +
      "(PNG by default; JPEG or WebP with `format`). Options: viewport " +
      "`width`/`height`, `fullPage`, `deviceScaleFactor`, `colorScheme`, " +
      "`reducedMotion`, a CSS `selector` to capture one element, `waitFor` " +
      "(milliseconds or a selector). Use it to see how a page looks. Takes an absolute " +
      "http(s) URL; private and loopback addresses are refused, also for everything the " +
      "page loads.",
  },
];

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  const limits: ScreenshotLimits = { ...DEFAULT_LIMITS, ...bindings.limits };
  const slots = new Admission({
    concurrency: limits.maxConcurrentPages,
    maxQueued: limits.maxQueuedPages,
    maxWaitMs: limits.queueTimeoutMs,
  });
  const policy = bindings.fetchPolicy;
  const cache = new CaptureCache(limits.cacheBytes);
  // Warm pages are made by the capture module, loaded on first use like the capture itself.
  const warm = limits.warmPages > 0
    ? new WarmPages<Prepared>(limits.warmPages, {
      prepare: async (browser) => (await loadCapture()).prepare(browser, deps),
      dispose: async (prepared) => (await loadCapture()).dispose(prepared),
    })
    : undefined;
  const deps: CaptureDeps = { browser: bindings.BROWSER, policy, limits, warm };
  /** Prepares the next pages while the browser is up and pages are free. */
  const refill = () => {
    if (!warm) return;
    bindings.BROWSER.get().then(
      (browser) => warm.fill(browser, slots.limits.concurrency - slots.active),
      () => {}, // no browser now: the next capture starts one
    );
  };
  // Its response schemas (zod) load with the document, not with the first /screenshot.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  const route = {
    method: "get",
    path: "/screenshot",
    operationId: "capturePage",
    params: SCREENSHOT_QUERY,
  } as const;
  addRoute(app, route, async (c, query) => {
    const { url, width, height, fullPage, deviceScaleFactor } = query;
    const format = query.format ?? "png";
    if (query.quality !== undefined && format === "png") {
      throw new ApiError("INVALID_INPUT", "quality applies to format=jpeg or webp only");
    }
    if (query.omitBackground && (format === "jpeg" || format === "pdf")) {
      throw new ApiError("INVALID_INPUT", "omitBackground needs format=png or webp");
    }
    if (format === "pdf") {
      if (query.quality !== undefined) {
        throw new ApiError("INVALID_INPUT", "quality applies to format=jpeg or webp only");
      }
      if (fullPage || query.selector) {
        throw new ApiError(
          "INVALID_INPUT",
          "format=pdf prints the whole page: fullPage and selector do not apply",
        );
      }
    } else if (query.paper !== undefined || query.landscape) {
      throw new ApiError("INVALID_INPUT", "paper and landscape apply to format=pdf only");
    }
    if (query.device && (width ?? height ?? deviceScaleFactor) !== undefined) {
      throw new ApiError(
        "INVALID_INPUT",
        "device sets the viewport: width, height and deviceScaleFactor do not apply",
      );
    }
    const target = new URL(url);
    // The shared literal-host check: a private name or address is never even queued.
    const allowed = policy.allowPrivate || policy.allowOrigins?.has(target.origin) ||
      isPublicHost(target.hostname);
    if (!allowed) throw privateHostError(policy);

    const request: CaptureRequest = {
      url,
      width,
      height,
      fullPage,
      deviceScaleFactor,
      format,
      quality: format === "jpeg" || format === "webp"
        ? query.quality ?? DEFAULT_QUALITY
        : undefined,
      paper: query.paper,
      landscape: query.landscape,
      device: query.device,
      hideCookieBanners: query.hideCookieBanners,
      blockAds: query.blockAds,
      colorScheme: query.colorScheme,
      reducedMotion: query.reducedMotion,
      omitBackground: query.omitBackground,
      selector: query.selector,
      waitFor: query.waitFor,
    };
    // The cache key is the capture's options themselves (in this fixed order), so no option
    // can change the image without changing the key.
    const key = JSON.stringify(request);
    const respond = (entry: CachedCapture, hit: boolean) => {
      const headers = {
        "Cache-Control": CACHE_CONTROL,
        "ETag": entry.etag,
        [CACHE_HEADER]: hit ? "HIT" : "MISS",
      };
      if (matchesIfNoneMatch(c.req.header("if-none-match"), entry.etag)) {
        return c.body(null, 304, headers);
      }
      return c.body(entry.body as Uint8Array<ArrayBuffer>, 200, {
        ...headers,
        "Content-Type": entry.contentType,
      });
    };
    const cached = cache.get(key);
    if (cached) return respond(cached, true);

    let png: Uint8Array;
    try {
      // A request past the page slots and their queue is 502 "Busy: …" with Retry-After.
      png = await admitted(c, slots, "SCREENSHOT_ERROR", async () =>
        (await loadCapture()).capture(
          request,
          // The capture is bounded by its deadline, not by the client: Deno.serve's
          // request.signal also fires on success (legacy abort), so it is left alone.
          deps,
        ));
    } finally {
      refill();
    }
    const entry = {
      body: png,
      contentType: FORMATS[format],
      etag: await etagOf(png),
      at: Date.now(),
    };
    cache.set(key, entry);
    return respond(entry, false);
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
