/**
 * Links and their click counts in libSQL, the source of truth. Every failure of the database
 * (down, hung past its deadline, corrupt) becomes 500 DATABASE_ERROR with a generic message;
 * the real error goes to the log.
 */
import type { InStatement, ResultSet, Row, TransactionMode } from "@libsql/client/web";
import type { Db } from "../../shared/bindings/db.ts";
import { NotConfiguredError } from "../../shared/contract/config.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import type { LinkRecord } from "./link.ts";

/** The message of every DATABASE_ERROR (the cause is logged, never sent). */
export const DATABASE_ERROR_MESSAGE = "Database error";

/** Outcome of an insert: stored, or refused by the unique index on `code`. */
export type InsertResult = "inserted" | "conflict";

/** A link with the hash of its manage token (null for links made before tokens existed). */
export interface ManagedLink {
  link: LinkRecord;
  manageHash: string | null;
}

/** Click counts of one link as stored (the flushed part). */
export interface StoredClicks {
  total: number;
  lastClickAt: string | null;
  /** `YYYY-MM-DD` (UTC) → clicks, for the days asked for. */
  days: Map<string, number>;
  /** Referrer host → clicks, all of them. */
  referrers: Map<string, number>;
}

const COLUMNS = "code, url, created_at, expires_at";

function toLink(row: Row): LinkRecord {
  return {
    code: String(row.code),
    url: String(row.url),
    createdAt: String(row.created_at),
    expiresAt: row.expires_at === null ? null : String(row.expires_at),
  };
}

/** Reads and writes links; one instance per app. */
export class LinkStore {
  readonly #db: Db;
  readonly #log: (line: string) => void;

  /** `log` receives one JSON line per database failure. */
  constructor(db: Db, log: (line: string) => void) {
    this.#db = db;
    this.#log = log;
  }

  #failed(op: string, err: unknown): ApiError {
    // A deployment without a database: the message names what to set, and holds no value.
    if (err instanceof NotConfiguredError) return new ApiError("DATABASE_ERROR", err.message);
    logEvent({ level: "error", event: "db_error", op, message: errorText(err) }, this.#log);
    return new ApiError("DATABASE_ERROR", DATABASE_ERROR_MESSAGE);
  }

  async #run(op: string, stmt: InStatement): Promise<ResultSet> {
    try {
      return await this.#db.execute(stmt);
    } catch (err) {
      throw this.#failed(op, err);
    }
  }

  /** Runs statements in one transaction (all or none). */
  async batch(
    op: string,
    stmts: InStatement[],
    mode: TransactionMode = "write",
  ): Promise<ResultSet[]> {
    try {
      return await this.#db.batch(stmts, mode);
    } catch (err) {
      throw this.#failed(op, err);
    }
  }

  /** The link stored under `code` (expired or not), or null. */
  async findByCode(code: string): Promise<LinkRecord | null> {
    const found = await this.findManaged(code);
    return found?.link ?? null;
  }

  /** The link under `code` with its manage-token hash, or null. */
  async findManaged(code: string): Promise<ManagedLink | null> {
    const rs = await this.#run("find_by_code", {
      sql: `SELECT ${COLUMNS}, manage_hash FROM links WHERE code = ?`,
      args: [code],
    });
    if (!rs.rows.length) return null;
    const row = rs.rows[0];
    return {
      link: toLink(row),
      manageHash: row.manage_hash === null ? null : String(row.manage_hash),
    };
  }

  /** Inserts a link; `conflict` when its code is taken (the unique index decides, atomically). */
  async insert(link: LinkRecord, custom: boolean, manageHash: string): Promise<InsertResult> {
    const rs = await this.#run("insert", {
      sql: `INSERT INTO links (code, url, custom, created_at, expires_at, manage_hash)
            VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      args: [link.code, link.url, custom ? 1 : 0, link.createdAt, link.expiresAt, manageHash],
    });
    return rs.rowsAffected === 1 ? "inserted" : "conflict";
  }

  /**
   * Sets `url` and `expiresAt` of the link under `code` whose token hash is `manageHash`
   * (checked again in the statement, so a concurrent delete or change of owner wins).
   * Returns the updated link, or null when no such link is left.
   */
  async update(
    code: string,
    manageHash: string,
    fields: { url: string; expiresAt: string | null },
  ): Promise<LinkRecord | null> {
    const rs = await this.#run("update", {
      sql: `UPDATE links SET url = ?, expires_at = ? WHERE code = ? AND manage_hash = ?
            RETURNING ${COLUMNS}`,
      args: [fields.url, fields.expiresAt, code, manageHash],
    });
    return rs.rows.length ? toLink(rs.rows[0]) : null;
  }

  /** Deletes the link under `code` (token hash checked) with its click counts; false if absent. */
  async remove(code: string, manageHash: string): Promise<boolean> {
    const [deleted] = await this.batch("delete", [
      { sql: "DELETE FROM links WHERE code = ? AND manage_hash = ?", args: [code, manageHash] },
      // Only when the link went: a wrong hash leaves the counts alone.
      {
        sql: "DELETE FROM link_clicks WHERE code = ? AND NOT EXISTS " +
          "(SELECT 1 FROM links WHERE code = ?)",
        args: [code, code],
      },
      {
        sql: "DELETE FROM link_clicks_daily WHERE code = ? AND NOT EXISTS " +
          "(SELECT 1 FROM links WHERE code = ?)",
        args: [code, code],
      },
      {
        sql: "DELETE FROM link_referrers WHERE code = ? AND NOT EXISTS " +
          "(SELECT 1 FROM links WHERE code = ?)",
        args: [code, code],
      },
    ]);
    return deleted.rowsAffected === 1;
  }

  /** The stored click counts of `code`, per day from `firstDay` (`YYYY-MM-DD`) on. */
  async clicks(code: string, firstDay: string): Promise<StoredClicks> {
    const [totals, days, referrers] = await this.batch("clicks", [
      { sql: "SELECT total, last_click_at FROM link_clicks WHERE code = ?", args: [code] },
      {
        sql: "SELECT day, clicks FROM link_clicks_daily WHERE code = ? AND day >= ?",
        args: [code, firstDay],
      },
      { sql: "SELECT host, clicks FROM link_referrers WHERE code = ?", args: [code] },
    ], "read");
    const row = totals.rows[0];
    return {
      total: row ? Number(row.total) : 0,
      lastClickAt: row ? String(row.last_click_at) : null,
      days: new Map(days.rows.map((r) => [String(r.day), Number(r.clicks)])),
      referrers: new Map(referrers.rows.map((r) => [String(r.host), Number(r.clicks)])),
    };
  }
}
