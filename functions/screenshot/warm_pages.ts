/**
 * Pages prepared ahead of requests: a guarded incognito context with a blank page, made
 * while the service is idle, so a capture starts at navigation. Never reused: each capture
 * takes one and closes it, and another is prepared behind it. Warm pages count against the
 * concurrency limit (the caller fills only while pages are free).
 */
import type { Browser } from "puppeteer-core";
import { type CaptureDeps, dispose, prepare, type Prepared } from "./capture.ts";

/** Prepared pages for one app (one policy), at most `max` at a time. */
export class WarmPages {
  readonly #ready: Promise<Prepared | null>[] = [];
  #closed = false;

  constructor(readonly max: number) {}

  /** Pages prepared or being prepared. */
  get size(): number {
    return this.#ready.length;
  }

  /** A prepared page for `browser`, or null (none ready, or made on a browser now gone). */
  async take(browser: Browser): Promise<Prepared | null> {
    while (this.#ready.length > 0) {
      const prepared = await this.#ready.shift()!;
      if (!prepared) continue;
      if (prepared.browser === browser && browser.connected && !prepared.page.isClosed()) {
        return prepared;
      }
      await dispose(prepared);
    }
    return null;
  }

  /** Prepares pages in the background, up to `room` (free concurrency) and `max`. */
  fill(browser: Browser, deps: CaptureDeps, room: number): void {
    while (!this.#closed && this.#ready.length < Math.min(this.max, room)) {
      this.#ready.push(prepare(browser, deps).catch(() => null));
    }
  }

  /** Closes every prepared page. */
  async close(): Promise<void> {
    this.#closed = true;
    const pending = this.#ready.splice(0);
    for (const prepared of await Promise.all(pending)) if (prepared) await dispose(prepared);
  }
}
