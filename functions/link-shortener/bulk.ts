/**
 * Bulk creation: `POST /shorten/bulk` with a JSON array of `POST /shorten` bodies, or CSV
 * (`text/csv`, a header row with `url` and optionally `code` and `expiresAt`), of up to
 * {@link MAX_BULK_ROWS} links. Each row is validated on its own and answered in order with its
 * link (and its own manage token) or its own contract error: one bad row never fails the
 * others. The valid rows are inserted in one transaction of `INSERT … ON CONFLICT DO NOTHING`
 * statements (one round trip), so a taken custom code fails that row only; a generated code
 * that collides is drawn again.
 */
import { parse as parseCsv } from "csv-parse/sync";
import { ApiError } from "../../shared/contract/errors.ts";
import { validationError } from "../../shared/contract/validation.ts";
import { randomCode } from "./codes.ts";
import type { LinkRecord } from "./link.ts";
import { hashManageToken, newManageToken } from "./manage_token.ts";
import { SHORTEN_MESSAGES } from "./messages.ts";
import { ShortenBody } from "./schema.ts";
import { MAX_CODE_ATTEMPTS, optionsView } from "./shorten.ts";
import { insertStatement, type LinkStore } from "./store.ts";
import { applyUtm } from "./utm.ts";

/** Most links in one request. */
export const MAX_BULK_ROWS = 1_000;

/** Largest body of one request (bytes). */
export const MAX_BULK_BYTES = 1024 * 1024;

/** The columns a CSV body may have. */
export const CSV_COLUMNS = ["url", "code", "expiresAt"] as const;

/** Messages of the bulk route. */
export const BULK_MESSAGES = {
  notArray: "Body must be a JSON array of links, or text/csv",
  tooMany: `At most ${MAX_BULK_ROWS} links per request`,
  csvColumns: `CSV needs a header row with a url column; columns may be ${CSV_COLUMNS.join(", ")}`,
  csvInvalid: "Invalid CSV",
  password: "password is not accepted in bulk: create password-protected links one by one",
} as const;

/** One answer of the bulk result: the link, or the row's own error. */
export type BulkResult =
  | (LinkRecord & Record<string, unknown> & { shortUrl: string; manageToken: string })
  | { error: string; code: string };

/** The rows of a body: a JSON array or CSV records. Throws 400/413 for the body as a whole. */
export function bulkRows(body: Uint8Array, contentType: string | undefined): unknown[] {
  const text = new TextDecoder().decode(body);
  if (/^text\/csv\b/i.test(contentType ?? "")) return csvRows(text);
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    throw new ApiError("INVALID_INPUT", "Invalid JSON");
  }
  if (!Array.isArray(json)) throw new ApiError("INVALID_INPUT", BULK_MESSAGES.notArray);
  if (json.length > MAX_BULK_ROWS) throw new ApiError("INVALID_INPUT", BULK_MESSAGES.tooMany, 413);
  return json;
}

function csvRows(text: string): unknown[] {
  let records: Record<string, string>[];
  try {
    records = parseCsv(text, {
      columns: true,
      bom: true,
      trim: true,
      skip_empty_lines: true,
      // One more than allowed: enough to tell "too many" without parsing the rest.
      to: MAX_BULK_ROWS + 1,
    });
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === "CSV_INVALID_COLUMN_MAPPING" || code === "CSV_INVALID_ARGUMENT") {
      throw new ApiError("INVALID_INPUT", BULK_MESSAGES.csvColumns);
    }
    throw new ApiError("INVALID_INPUT", BULK_MESSAGES.csvInvalid);
  }
  if (records.length > MAX_BULK_ROWS) {
    throw new ApiError("INVALID_INPUT", BULK_MESSAGES.tooMany, 413);
  }
  const columns = records.length ? Object.keys(records[0]) : [];
  if (
    records.length &&
    (!columns.includes("url") ||
      columns.some((c) => !(CSV_COLUMNS as readonly string[]).includes(c)))
  ) {
    throw new ApiError("INVALID_INPUT", BULK_MESSAGES.csvColumns);
  }
  // An empty cell is an absent field.
  return records.map((r) =>
    Object.fromEntries(Object.entries(r).filter(([, value]) => value !== ""))
  );
}

/** A row ready to insert. */
interface Pending {
  index: number;
  link: LinkRecord;
  custom: boolean;
  manageToken: string;
  manageHash: string;
  extras: { maxClicks: number | null; utm: ReturnType<typeof optionsView>["utm"] };
}

/**
 * Validates and stores the rows; `pointsAtSelf` refuses a row whose url is this service,
 * `base` makes each `shortUrl`. The answer has one entry per row, in order.
 */
export async function shortenBulk(
  store: LinkStore,
  rows: unknown[],
  { base, pointsAtSelf, generate = randomCode }: {
    base: string;
    pointsAtSelf: (url: string) => boolean;
    generate?: () => string;
  },
): Promise<BulkResult[]> {
  const results: BulkResult[] = new Array(rows.length);
  const pending: Pending[] = [];
  const createdAt = new Date().toISOString();
  for (const [index, row] of rows.entries()) {
    const parsed = ShortenBody.safeParse(row);
    if (!parsed.success) {
      const err = validationError(parsed.error);
      results[index] = { error: err.message, code: err.code ?? "INVALID_INPUT" };
      continue;
    }
    const input = parsed.data;
    if (input.password) {
      results[index] = { error: BULK_MESSAGES.password, code: "INVALID_INPUT" };
      continue;
    }
    if (pointsAtSelf(input.url)) {
      results[index] = { error: SHORTEN_MESSAGES.selfLink, code: "INVALID_URL" };
      continue;
    }
    const manageToken = newManageToken();
    pending.push({
      index,
      link: {
        code: input.code ?? generate(),
        url: input.utm ? applyUtm(input.url, input.utm) : input.url,
        createdAt,
        expiresAt: input.expiresAt ?? null,
      },
      custom: Boolean(input.code),
      manageToken,
      manageHash: await hashManageToken(manageToken),
      extras: { maxClicks: input.maxClicks ?? null, utm: input.utm ?? null },
    });
  }

  let todo = pending;
  for (let attempt = 0; todo.length > 0; attempt++) {
    const outcomes = await store.batch(
      "bulk_insert",
      todo.map((p) => insertStatement(p.link, p.custom, p.manageHash, p.extras)),
    );
    const retry: Pending[] = [];
    for (const [i, p] of todo.entries()) {
      if (outcomes[i].rowsAffected === 1) {
        results[p.index] = {
          ...p.link,
          passwordProtected: false,
          ...p.extras,
          shortUrl: `${base}/${p.link.code}`,
          manageToken: p.manageToken,
        };
      } else if (p.custom) {
        results[p.index] = { error: SHORTEN_MESSAGES.taken, code: "INVALID_INPUT" };
      } else if (attempt + 1 >= MAX_CODE_ATTEMPTS) {
        results[p.index] = { error: "Could not allocate a free code", code: "INTERNAL_ERROR" };
      } else {
        retry.push({ ...p, link: { ...p.link, code: generate() } });
      }
    }
    todo = retry;
  }
  return results;
}
