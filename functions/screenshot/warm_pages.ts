/**
 * Pages prepared ahead of requests: a guarded incognito context with a blank page, made
 * while the service is idle, so a capture starts at navigation. Never reused: each capture
 * takes one and closes it, and another is prepared behind it. Warm pages count against the
 * concurrency limit (the caller fills only while pages are free).
 *
 * How a page is prepared and disposed of is given by the caller (capture.ts's `prepare` and
 * `dispose`), so that this module imports no capture code: app.ts holds a `WarmPages` from
 * the start, and the capture (puppeteer-core, the policy proxy on node:http) is loaded by the
 * first `/screenshot`.
 */
import type { Browser } from "puppeteer-core";

/** What a warm page must tell: the browser it was made on, and whether its page is closed. */
export interface WarmPage {
  browser: Browser;
  page: { isClosed(): boolean };
}

/** How pages are made and thrown away. */
export interface WarmPageMaker<P extends WarmPage> {
  /** A guarded context with a blank page on `browser`. */
  prepare(browser: Browser): Promise<P>;
  /** Closes what `prepare` made. */
  dispose(prepared: P): Promise<void>;
}

/** Prepared pages for one app (one policy), at most `max` at a time. */
export class WarmPages<P extends WarmPage = WarmPage> {
  readonly #ready: Promise<P | null>[] = [];
  readonly #maker: WarmPageMaker<P>;
  #closed = false;

  constructor(readonly max: number, maker: WarmPageMaker<P>) {
    this.#maker = maker;
  }

  /** Pages prepared or being prepared. */
  get size(): number {
    return this.#ready.length;
  }

  /** A prepared page for `browser`, or null (none ready, or made on a browser now gone). */
  async take(browser: Browser): Promise<P | null> {
    while (this.#ready.length > 0) {
      const prepared = await this.#ready.shift()!;
      if (!prepared) continue;
      if (prepared.browser === browser && browser.connected && !prepared.page.isClosed()) {
        return prepared;
      }
      await this.#maker.dispose(prepared);
    }
    return null;
  }

  /** Prepares pages in the background, up to `room` (free concurrency) and `max`. */
  fill(browser: Browser, room: number): void {
    while (!this.#closed && this.#ready.length < Math.min(this.max, room)) {
      this.#ready.push(this.#maker.prepare(browser).catch(() => null));
    }
  }

  /** Closes every prepared page. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#ready.splice(0);
    for (const prepared of await Promise.all(pending)) {
      if (prepared) await this.#maker.dispose(prepared);
    }
  }
}
