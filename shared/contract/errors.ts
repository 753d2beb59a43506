/**
 * The error contract: one error type, the code table with its statuses, and the Hono
 * `onError` / `notFound` handlers that every experiment installs (through shared/app.ts).
 */
import type { Context, ErrorHandler, NotFoundHandler } from "hono";
import { HTTPException } from "hono/http-exception";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import { errorText, logEvent } from "./log.ts";

/** Every code of the contract, with the status it carries by default. */
export const ERROR_STATUS = {
  INVALID_URL: 400,
  INVALID_INPUT: 400,
  NOT_FOUND: 404,
  FETCH_ERROR: 502,
  PARSE_ERROR: 502,
  AI_ERROR: 502,
  SCREENSHOT_ERROR: 502,
  FETCH_OR_AI_ERROR: 502,
  DATABASE_ERROR: 500,
  STORAGE_ERROR: 500,
  INTERNAL_ERROR: 500,
} as const satisfies Record<string, ContentfulStatusCode>;

/** A code from the contract's table. */
export type ErrorCode = keyof typeof ERROR_STATUS;

/** The JSON body of every error response (the `/object` missing-key body omits `code`). */
export interface ErrorBody {
  error: string;
  code?: ErrorCode;
}

/**
 * The one error type. Throw it anywhere inside a handler; `onError` turns it into
 * `{error, code}` with the code's status, or with `status` where HTTP demands another
 * (413 for an oversize upload). `code: null` is the contract's single code-less body.
 */
export class ApiError extends Error {
  readonly code: ErrorCode | null;
  readonly status: ContentfulStatusCode;
  constructor(code: ErrorCode | null, message: string, status?: ContentfulStatusCode) {
    super(message);
    this.name = "ApiError";
    this.code = code;
    this.status = status ?? (code ? ERROR_STATUS[code] : 400);
  }

  /** The response body of this error. */
  get body(): ErrorBody {
    return this.code ? { error: this.message, code: this.code } : { error: this.message };
  }
}

/** True for errors that are the contract's own, as opposed to uncaught failures. */
export function isApiError(err: unknown): err is ApiError {
  return err instanceof ApiError;
}

/** Sends an error body as JSON (the content type the conventions require). */
export function errorResponse(c: Context, err: ApiError): Response {
  c.set("errorCode", err.code ?? "INVALID_INPUT");
  c.set("errorMessage", err.message);
  return c.json(err.body, err.status);
}

/**
 * Strips what must never reach a client from an uncaught failure's message: file paths,
 * URLs with credentials and connection strings. The stack goes to the log, not the body.
 */
export function safeMessage(err: unknown): string {
  const raw = err instanceof Error ? err.message : String(err);
  const cleaned = raw
    .replace(/[a-z][a-z0-9+.-]*:\/\/[^\s'"]*/gi, "<url>")
    .replace(/(?:\/[\w.@-]+){2,}/g, "<path>")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 300);
  return cleaned || "Internal error";
}

/** A body over its size limit: 413 (HTTP's status for it) with the contract's code. */
export function payloadTooLarge(subject: string, limit: number): ApiError {
  return new ApiError("INVALID_INPUT", `${subject} exceeds the limit of ${limit} bytes`, 413);
}

function stackOf(err: unknown): string | undefined {
  return err instanceof Error ? err.stack : undefined;
}

/** `app.onError`: contract errors as they are; anything else is 500 INTERNAL_ERROR. */
export const onError: ErrorHandler = (err, c) => {
  if (isApiError(err)) return errorResponse(c, err);
  if (err instanceof HTTPException && err.status < 500) {
    // Hono's own 4xx (e.g. a body it could not read) stay client errors under the contract.
    const code = err.status === 404 ? "NOT_FOUND" : "INVALID_INPUT";
    return errorResponse(c, new ApiError(code, err.message || "Invalid input", err.status));
  }
  logEvent({ level: "error", event: "uncaught", message: errorText(err), stack: stackOf(err) });
  return errorResponse(c, new ApiError("INTERNAL_ERROR", safeMessage(err)));
};

/** `app.notFound`: an unknown route is 404 NOT_FOUND. */
export const notFound: NotFoundHandler = (c) =>
  errorResponse(c, new ApiError("NOT_FOUND", "Not found"));
