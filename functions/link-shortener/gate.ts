/**
 * The redirect of a gated link (a password, a click limit, or both), decided by the database
 * on every request and never served from a cache:
 *
 * - a password comes in the `X-Link-Password` header (API clients) or from the HTML form a
 *   browser is shown (`POST /:code`); wrong ones are counted per link in the database, and
 *   after {@link FREE_ATTEMPTS} the link refuses every attempt for a while that doubles with
 *   each further failure (up to {@link MAX_BLOCK_MS}), on every instance alike;
 * - a click limit is counted by the statement that admits the redirect
 *   (`UPDATE … SET clicks_used = clicks_used + 1 WHERE … clicks_used < max_clicks RETURNING`),
 *   so concurrent redirects on any number of instances admit exactly `maxClicks` of them.
 */
import type { Context } from "hono";
import type { Db } from "../../shared/bindings/db.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorText, logEvent, type LogSink } from "../../shared/contract/log.ts";
import { isExpired } from "./link.ts";
import { verifyPassword } from "./password.ts";
import { passwordForm } from "./password_form.ts";
import { DATABASE_ERROR_MESSAGE, type LinkStore } from "./store.ts";

/** The header an API client sends a link's password in. */
export const PASSWORD_HEADER = "X-Link-Password";

/** Wrong passwords a link takes before it starts refusing attempts for a while. */
export const FREE_ATTEMPTS = 5;

/** The longest a link refuses password attempts after repeated failures. */
export const MAX_BLOCK_MS = 15 * 60_000;

/** Messages of the password flow. */
export const GATE_MESSAGES = {
  required: "Password required",
  wrong: "Wrong password",
  blocked: (seconds: number) => `Too many wrong passwords: try again in ${seconds} s`,
} as const;

/** What the gate needs. */
export interface GateDeps {
  db: Db;
  store: LinkStore;
  log: LogSink;
  /** Called for each admitted GET/POST redirect (the click counter). */
  onClick: (code: string, referer: string | null) => void;
  /** Milliseconds since the epoch (tests move it). */
  now?: () => number;
}

/** The message of every gate answer that is not the link's business (the cause is logged). */
const LINK_EXPIRED = "Link expired";
const LINK_NOT_FOUND = "Link not found";

/** True when the client asked for HTML (a browser following the link). */
export function wantsHtml(c: Context): boolean {
  return (c.req.header("accept") ?? "").includes("text/html");
}

/** Decides the redirect of gated links. */
export class Gate {
  readonly #deps: GateDeps;
  readonly #now: () => number;

  constructor(deps: GateDeps) {
    this.#deps = deps;
    this.#now = deps.now ?? Date.now;
  }

  async #sql(op: string, sql: string, args: (string | number)[]) {
    try {
      return await this.#deps.db.execute({ sql, args });
    } catch (err) {
      logEvent({ level: "error", event: "db_error", op, message: errorText(err) }, this.#deps.log);
      throw new ApiError("DATABASE_ERROR", DATABASE_ERROR_MESSAGE);
    }
  }

  /**
   * The answer to a request for `code`: 302, the password form (browsers) or a 401/429 (API
   * clients), or 404 "Link expired" once the click limit is used up. `password` is the one the
   * request carries (form field or header), if any.
   */
  async redirect(c: Context, code: string, password: string | null): Promise<Response> {
    const found = await this.#deps.store.findManaged(code);
    if (found === null) throw new ApiError("NOT_FOUND", LINK_NOT_FOUND);
    const { link, options } = found;
    if (isExpired(link, this.#now())) throw new ApiError("NOT_FOUND", LINK_EXPIRED);
    if (options.maxClicks !== null && options.clicksUsed >= options.maxClicks) {
      throw new ApiError("NOT_FOUND", LINK_EXPIRED);
    }
    if (options.passwordProtected) {
      const refusal = await this.#checkPassword(c, code, password);
      if (refusal) return refusal;
    }
    const method = c.req.method;
    // HEAD (link checkers, previews) is answered but neither counted nor admitted.
    if (method === "HEAD") return this.#found(c, link.url);
    let url = link.url;
    if (options.maxClicks !== null) {
      const rs = await this.#sql(
        "admit_click",
        `UPDATE links SET clicks_used = clicks_used + 1
         WHERE code = ? AND max_clicks IS NOT NULL AND clicks_used < max_clicks RETURNING url`,
        [code],
      );
      if (!rs.rows.length) throw new ApiError("NOT_FOUND", LINK_EXPIRED);
      url = String(rs.rows[0].url);
    }
    this.#deps.onClick(code, c.req.header("referer") ?? null);
    return this.#found(c, url);
  }

  /** Forgets the failures of `code` (its link was deleted; the code may be taken again). */
  async forget(code: string): Promise<void> {
    await this.#sql("forget_failures", "DELETE FROM link_password_failures WHERE code = ?", [
      code,
    ]);
  }

  #found(c: Context, url: string): Response {
    // Each admission is decided here: no cache on the way may keep this redirect.
    c.header("Cache-Control", "private, no-store");
    return c.redirect(url, 302);
  }

  /** Null when `password` opens the link; else the answer (form or error). */
  async #checkPassword(c: Context, code: string, password: string | null) {
    const html = wantsHtml(c);
    if (password === null) {
      if (html) return passwordForm(c, code, 200);
      throw new ApiError("INVALID_INPUT", GATE_MESSAGES.required, 401);
    }
    const now = this.#now();
    const blocked = await this.#sql(
      "password_blocked",
      "SELECT blocked_until FROM link_password_failures WHERE code = ?",
      [code],
    );
    const until = blocked.rows.length ? Number(blocked.rows[0].blocked_until) : 0;
    if (until > now) return this.#blocked(c, code, until - now);
    const hash = await this.#sql(
      "password_hash",
      "SELECT password_hash FROM links WHERE code = ?",
      [code],
    );
    const record = hash.rows[0]?.password_hash;
    if (typeof record === "string" && await verifyPassword(password, record)) {
      if (blocked.rows.length) {
        await this.#sql("password_ok", "DELETE FROM link_password_failures WHERE code = ?", [
          code,
        ]);
      }
      return null;
    }
    // Counted in one statement (concurrent failures on several instances all count); from
    // the FREE_ATTEMPTS-th on, the link refuses attempts for 1 s, 2 s, 4 s, … up to the cap.
    await this.#sql(
      "password_wrong",
      `INSERT INTO link_password_failures (code, failures, blocked_until) VALUES (?, 1, 0)
       ON CONFLICT (code) DO UPDATE SET failures = failures + 1,
         blocked_until = CASE WHEN failures + 1 >= ?
           THEN ? + min(?, 1000 * (1 << min(30, failures + 1 - ?))) ELSE 0 END`,
      [code, FREE_ATTEMPTS, now, MAX_BLOCK_MS, FREE_ATTEMPTS],
    );
    logEvent({ level: "warn", event: "link_password_wrong", code }, this.#deps.log);
    if (html) return passwordForm(c, code, 401, GATE_MESSAGES.wrong);
    throw new ApiError("INVALID_INPUT", GATE_MESSAGES.wrong, 401);
  }

  #blocked(c: Context, code: string, ms: number): Response {
    const seconds = Math.max(1, Math.ceil(ms / 1000));
    c.header("Retry-After", String(seconds));
    if (wantsHtml(c)) return passwordForm(c, code, 429, GATE_MESSAGES.blocked(seconds));
    throw new ApiError("INVALID_INPUT", GATE_MESSAGES.blocked(seconds), 429);
  }
}
