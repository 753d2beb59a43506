/**
 * Network idle, detected from the page's own request events instead of Chromium's
 * `networkIdle` lifecycle event (a fixed 500 ms window that in practice costs about a second
 * per capture): the page is idle once no counted request has been in flight for
 * `QUIET_WINDOW_MS`. Long-lived connections do not hold it up: EventSource and media streams
 * are never counted, and a request still open after `LONG_REQUEST_MS` (long polling, a
 * streamed response) stops counting. WebSockets never appear as requests.
 */
import type { HTTPRequest, Page } from "puppeteer-core";

/** How long the network must stay quiet. Longer than a 150 ms polling interval. */
export const QUIET_WINDOW_MS = 250;

/** A request open longer than this is taken for long polling or a stream and not waited for. */
export const LONG_REQUEST_MS = 1_000;

/** Resource types that are streams by nature: never waited for. */
const STREAMING_TYPES = new Set(["eventsource", "media", "websocket"]);

/** Watches a page's requests; `idle()` resolves once the network has been quiet long enough. */
export class NetworkIdle {
  readonly #open = new Map<HTTPRequest, ReturnType<typeof setTimeout>>();
  #quiet: ReturnType<typeof setTimeout> | undefined;
  #resolve: (() => void) | undefined;
  readonly #promise: Promise<void>;
  #armed = false;
  readonly #detach: () => void;

  constructor(private readonly page: Page, private readonly quietMs = QUIET_WINDOW_MS) {
    this.#promise = new Promise((resolve) => (this.#resolve = resolve));
    const started = (request: HTTPRequest) => {
      if (STREAMING_TYPES.has(request.resourceType())) return;
      clearTimeout(this.#quiet);
      // Still open after LONG_REQUEST_MS: a long poll or a stream, no longer waited for.
      this.#open.set(request, setTimeout(() => this.#done(request), LONG_REQUEST_MS));
    };
    const ended = (request: HTTPRequest) => this.#done(request);
    page.on("request", started);
    page.on("requestfinished", ended);
    page.on("requestfailed", ended);
    this.#detach = () => {
      page.off("request", started);
      page.off("requestfinished", ended);
      page.off("requestfailed", ended);
    };
  }

  /** Resolves once no counted request has been open for the quiet window, after `load`. */
  idle(): Promise<void> {
    this.#armed = true;
    this.#check();
    return this.#promise;
  }

  /** Stops listening and clears every timer. */
  dispose(): void {
    this.#detach();
    clearTimeout(this.#quiet);
    for (const timer of this.#open.values()) clearTimeout(timer);
    this.#open.clear();
  }

  #done(request: HTTPRequest): void {
    const timer = this.#open.get(request);
    if (timer === undefined) return;
    clearTimeout(timer);
    this.#open.delete(request);
    this.#check();
  }

  #check(): void {
    if (!this.#armed || this.#open.size > 0) return;
    clearTimeout(this.#quiet);
    this.#quiet = setTimeout(() => {
      if (this.#open.size === 0) this.#resolve?.();
    }, this.quietMs);
  }
}
