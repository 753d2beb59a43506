/**
 * Click analytics without a database write on the redirect path: each redirect adds to
 * counters in memory (a `Map` lookup and a few increments), and the counters are flushed to
 * libSQL in one transaction per batch of links, every `flushMs` and at shutdown. A crash
 * loses at most the clicks of one interval; a failed flush keeps its counts for the next.
 * Only the referrer's host is kept (no address, no user agent, no full referrer URL).
 */
import type { InStatement } from "@libsql/client/web";
import type { Db } from "../../shared/bindings/db.ts";
import { errorText, logEvent, type LogSink } from "../../shared/contract/log.ts";
import type { LinkStore, StoredClicks } from "./store.ts";

/**
 * Default flush interval (ms): the most a crash (SIGKILL) can lose, and how long another
 * instance's stats may lag behind.
 */
export const DEFAULT_CLICK_FLUSH_MS = 1_000;

/** Days in `clicksByDay` (today included). */
export const STATS_DAYS = 30;

/** Referrer hosts listed in `topReferrers`. */
export const TOP_REFERRERS = 10;

/** Distinct referrer hosts kept per link between two flushes; the rest count as `(other)`. */
export const MAX_HOSTS_PER_FLUSH = 100;

/** Links per flush transaction. */
const LINKS_PER_BATCH = 200;

const DAY_MS = 86_400_000;

/** Clicks of one link not yet flushed. */
interface Pending {
  total: number;
  /** ms since the epoch. */
  last: number;
  days: Map<string, number>;
  hosts: Map<string, number>;
}

/** The statistics of one link, as `GET /:code/stats` answers them. */
export interface ClickStats {
  totalClicks: number;
  /** ISO instant of the last click, or null. */
  lastClickAt: string | null;
  /** The last {@link STATS_DAYS} UTC days, oldest first, zeros included. */
  clicksByDay: { date: string; clicks: number }[];
  /** Referrer hosts with the most clicks (at most {@link TOP_REFERRERS}). */
  topReferrers: { host: string; clicks: number }[];
}

let dayStart = 0;
let dayKey = "";

/** `YYYY-MM-DD` (UTC) of `ms`, formatted once per day. */
export function utcDay(ms: number): string {
  if (ms >= dayStart && ms < dayStart + DAY_MS) return dayKey;
  const start = ms - (ms % DAY_MS);
  const key = new Date(start).toISOString().slice(0, 10);
  // Only the current day is kept (the hot path asks for it over and over).
  if (Math.abs(ms - Date.now()) < DAY_MS) {
    dayStart = start;
    dayKey = key;
  }
  return key;
}

/** What referrer hosts beyond the kept ones, or not host names, count as. */
export const OTHER_HOST = "(other)";

/** A DNS name (labels of at most 63 characters) or an IP address, as URL parsing gives it. */
const HOST_NAME =
  /^(?:(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*|\[[0-9a-f:.]+\])$/;

/**
 * The host of a `Referer` header, lower case, or null (absent, malformed, not http(s)); a
 * host that is no host name of at most 253 characters (real names stop there) is `(other)`,
 * so a client cannot fill the referrer table with long made-up names.
 */
export function referrerHost(referer: string | null): string | null {
  if (!referer) return null;
  try {
    const url = new URL(referer);
    if (url.protocol !== "http:" && url.protocol !== "https:") return null;
    const host = url.hostname.toLowerCase().replace(/\.$/, "");
    if (!host) return null;
    return host.length <= 253 && HOST_NAME.test(host) ? host : OTHER_HOST;
  } catch {
    return null;
  }
}

/** Options of {@link ClickCounter}. */
export interface ClickCounterOptions {
  /** Flush interval (ms, default {@link DEFAULT_CLICK_FLUSH_MS}). */
  flushMs?: number;
  /** Start the interval with the first click (a served app); off: flush by hand (tests). */
  autoFlush?: boolean;
  /** Where a failed flush is logged (default: the request's sink, else stderr). */
  log?: LogSink;
}

/** Counts clicks in memory and flushes them to libSQL. */
export class ClickCounter {
  readonly #db: Pick<Db, "batch">;
  readonly #log: LogSink | undefined;
  readonly #flushMs: number;
  readonly #autoFlush: boolean;
  #pending = new Map<string, Pending>();
  /**
   * The code recorded last and its counts: a run of clicks on one link (the usual burst) skips
   * hashing the code for the `Map` (the code is a new string on every request).
   */
  #lastCode: string | undefined;
  #lastPending: Pending | undefined;
  #timer: ReturnType<typeof setInterval> | undefined;
  #flushing: Promise<void> | undefined;

  /** Counts for the links in `db` (the DB binding). */
  constructor(db: Pick<Db, "batch">, options: ClickCounterOptions = {}) {
    this.#db = db;
    this.#log = options.log;
    this.#flushMs = options.flushMs ?? DEFAULT_CLICK_FLUSH_MS;
    this.#autoFlush = options.autoFlush ?? false;
  }

  /** Links with clicks not yet flushed. */
  get pendingLinks(): number {
    return this.#pending.size;
  }

  /** Counts one click on `code` at `at` (ms) from a page on `referer` (a header value). */
  record(code: string, referer: string | null, at: number = Date.now()): void {
    let p = code === this.#lastCode ? this.#lastPending : this.#pending.get(code);
    if (p === undefined) {
      if (this.#autoFlush && this.#timer === undefined) this.start();
      p = { total: 0, last: 0, days: new Map(), hosts: new Map() };
      this.#pending.set(code, p);
    }
    this.#lastCode = code;
    this.#lastPending = p;
    p.total++;
    if (at > p.last) p.last = at;
    const day = utcDay(at);
    p.days.set(day, (p.days.get(day) ?? 0) + 1);
    if (referer) {
      let host = referrerHost(referer);
      if (host !== null) {
        if (!p.hosts.has(host) && p.hosts.size >= MAX_HOSTS_PER_FLUSH) host = OTHER_HOST;
        p.hosts.set(host, (p.hosts.get(host) ?? 0) + 1);
      }
    }
  }

  /** Drops the unflushed clicks of `code` (its link was deleted). */
  forget(code: string): void {
    this.#pending.delete(code);
    this.#lastCode = undefined;
  }

  /** Flushes every `flushMs` until {@link stop}; the timer never keeps the process alive. */
  start(): void {
    if (this.#timer !== undefined) return;
    this.#timer = setInterval(() => this.flush().catch(() => {}), this.#flushMs);
    Deno.unrefTimer(this.#timer);
  }

  /**
   * Stops the timer and flushes what is left, again if clicks came in while the first flush
   * was writing (requests still in flight at shutdown).
   */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await this.flush();
    if (this.#pending.size > 0) await this.flush();
  }

  /**
   * Writes the pending counts: each batch of links in one transaction (the counts of a link
   * never split across two). A batch that fails is merged back for the next flush and the
   * flush rejects. Concurrent calls wait for the flush in progress, then flush again.
   */
  async flush(): Promise<void> {
    while (this.#flushing) await this.#flushing.catch(() => {});
    if (this.#pending.size === 0) return;
    const run = this.#flushAll();
    this.#flushing = run;
    try {
      await run;
    } finally {
      this.#flushing = undefined;
    }
  }

  async #flushAll(): Promise<void> {
    const taken = this.#pending;
    this.#pending = new Map();
    this.#lastCode = undefined;
    const entries = [...taken];
    let failure: unknown;
    for (let i = 0; i < entries.length; i += LINKS_PER_BATCH) {
      const chunk = entries.slice(i, i + LINKS_PER_BATCH);
      try {
        await this.#db.batch(chunk.flatMap(([code, p]) => statements(code, p)), "write");
      } catch (err) {
        failure = err;
        for (const [code, p] of chunk) this.#mergeBack(code, p);
      }
    }
    if (failure !== undefined) {
      logEvent({
        level: "warn",
        event: "click_flush_failed",
        pendingLinks: this.#pending.size,
        message: errorText(failure),
      }, this.#log);
      throw failure;
    }
  }

  #mergeBack(code: string, p: Pending): void {
    const now = this.#pending.get(code);
    if (now === undefined) {
      this.#pending.set(code, p);
      return;
    }
    now.total += p.total;
    now.last = Math.max(now.last, p.last);
    for (const [day, n] of p.days) now.days.set(day, (now.days.get(day) ?? 0) + n);
    for (const [host, n] of p.hosts) now.hosts.set(host, (now.hosts.get(host) ?? 0) + n);
  }

  /** The statistics of `code`: what `store` holds plus what is still in memory. */
  async stats(store: LinkStore, code: string, now: number = Date.now()): Promise<ClickStats> {
    const days = Array.from(
      { length: STATS_DAYS },
      (_, i) => new Date(now - (STATS_DAYS - 1 - i) * DAY_MS).toISOString().slice(0, 10),
    );
    const stored: StoredClicks = await store.clicks(code, days[0]);
    const p = this.#pending.get(code);
    let total = stored.total;
    let last = stored.lastClickAt;
    if (p) {
      total += p.total;
      const pendingLast = new Date(p.last).toISOString();
      if (last === null || pendingLast > last) last = pendingLast;
      for (const [day, n] of p.days) stored.days.set(day, (stored.days.get(day) ?? 0) + n);
      for (const [host, n] of p.hosts) {
        stored.referrers.set(host, (stored.referrers.get(host) ?? 0) + n);
      }
    }
    const topReferrers = [...stored.referrers]
      .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1))
      .slice(0, TOP_REFERRERS)
      .map(([host, clicks]) => ({ host, clicks }));
    return {
      totalClicks: total,
      lastClickAt: last,
      clicksByDay: days.map((date) => ({ date, clicks: stored.days.get(date) ?? 0 })),
      topReferrers,
    };
  }
}

/**
 * The upserts of one link's pending counts. Each is guarded by the link's existence, so
 * clicks counted just before a DELETE never leave counts behind for a future link.
 */
function statements(code: string, p: Pending): InStatement[] {
  const exists = "WHERE EXISTS (SELECT 1 FROM links WHERE code = ?)";
  const out: InStatement[] = [{
    sql: `INSERT INTO link_clicks (code, total, last_click_at) SELECT ?, ?, ? ${exists}
          ON CONFLICT (code) DO UPDATE SET total = total + excluded.total,
          last_click_at = max(last_click_at, excluded.last_click_at)`,
    args: [code, p.total, new Date(p.last).toISOString(), code],
  }];
  for (const [day, n] of p.days) {
    out.push({
      sql: `INSERT INTO link_clicks_daily (code, day, clicks) SELECT ?, ?, ? ${exists}
            ON CONFLICT (code, day) DO UPDATE SET clicks = clicks + excluded.clicks`,
      args: [code, day, n, code],
    });
  }
  for (const [host, n] of p.hosts) {
    out.push({
      sql: `INSERT INTO link_referrers (code, host, clicks) SELECT ?, ?, ? ${exists}
            ON CONFLICT (code, host) DO UPDATE SET clicks = clicks + excluded.clicks`,
      args: [code, host, n, code],
    });
  }
  return out;
}
