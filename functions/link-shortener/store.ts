/**
 * Links in libSQL, the source of truth. Every failure of the database becomes 500
 * DATABASE_ERROR with a generic message; the real error goes to the log.
 */
import type { Client, InStatement, ResultSet, Row } from "@libsql/client";
import { ApiError } from "../../shared/contract/errors.ts";
import { errorText, logEvent } from "../../shared/contract/log.ts";
import type { LinkRecord } from "./link.ts";

/** The message of every DATABASE_ERROR (the cause is logged, never sent). */
export const DATABASE_ERROR_MESSAGE = "Database error";

/** Outcome of an insert: stored, or refused by a unique index. */
export type InsertResult = "inserted" | "conflict";

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
  readonly #db: Client;
  readonly #log: (line: string) => void;

  /** `log` receives one JSON line per database failure. */
  constructor(db: Client, log: (line: string) => void) {
    this.#db = db;
    this.#log = log;
  }

  async #run(op: string, stmt: InStatement): Promise<ResultSet> {
    try {
      return await this.#db.execute(stmt);
    } catch (err) {
      logEvent({ level: "error", event: "db_error", op, message: errorText(err) }, this.#log);
      throw new ApiError("DATABASE_ERROR", DATABASE_ERROR_MESSAGE);
    }
  }

  /** The link stored under `code` (expired or not), or null. */
  async findByCode(code: string): Promise<LinkRecord | null> {
    const rs = await this.#run("find_by_code", {
      sql: `SELECT ${COLUMNS} FROM links WHERE code = ?`,
      args: [code],
    });
    return rs.rows.length ? toLink(rs.rows[0]) : null;
  }

  /** The link with a generated code for this exact url and expiry, or null. */
  async findGenerated(url: string, expiresAt: string | null): Promise<LinkRecord | null> {
    const rs = await this.#run("find_generated", {
      // Same expression as the partial unique index, so the lookup uses it.
      sql: `SELECT ${COLUMNS} FROM links
            WHERE custom = 0 AND url = ? AND ifnull(expires_at, '') = ?`,
      args: [url, expiresAt ?? ""],
    });
    return rs.rows.length ? toLink(rs.rows[0]) : null;
  }

  /**
   * Inserts a link; `conflict` when a unique index refuses it (its code is taken, or a
   * generated link for the same url and expiry exists). The index decides, atomically.
   */
  async insert(link: LinkRecord, custom: boolean): Promise<InsertResult> {
    const rs = await this.#run("insert", {
      sql: `INSERT INTO links (code, url, custom, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
      args: [link.code, link.url, custom ? 1 : 0, link.createdAt, link.expiresAt],
    });
    return rs.rowsAffected === 1 ? "inserted" : "conflict";
  }
}
