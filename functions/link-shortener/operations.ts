/**
 * What the OpenAPI document says of the link-shortener's routes beyond their declarations in
 * app.ts: summaries, descriptions, request bodies and response schemas (zod), and the manage
 * token's security scheme; loaded with the document (shared/contract/light_app.ts), never by a
 * redirect.
 */
import { z } from "@hono/zod-openapi";
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonBody, jsonContent } from "../../shared/contract/openapi.ts";
import { MAX_BULK_ROWS } from "./bulk.ts";
import {
  BulkResultSchema,
  InfoResult,
  LinkSchema,
  PatchBody,
  ShortenBody,
  ShortenResult,
  StatsResult,
} from "./schema.ts";

/** The security scheme of the routes that need the link's manage token. */
const MANAGE_TOKEN_SCHEME = "manageToken";

/** The link of the examples in `/openapi.json`. */
const EXAMPLE_LINK = {
  code: "launch-2030",
  url: "https://example.com/a/long/path",
  createdAt: "2026-01-01T12:00:00.000Z",
  expiresAt: "2030-01-01T00:00:00.000Z",
};

/** Its statistics, in the examples (two days of the 30 shown). */
const EXAMPLE_STATS = {
  totalClicks: 3,
  lastClickAt: "2026-01-02T10:00:00.000Z",
  clicksByDay: [{ date: "2026-01-01", clicks: 1 }, { date: "2026-01-02", clicks: 2 }],
  topReferrers: [{ host: "news.example.com", clicks: 2 }],
};

/**
 * The answers of a link's redirect (`GET /{code}`, and the password form's submission): the
 * 302, the password form (`form` describes it), and the errors.
 */
function redirectResponses(form: string): OperationDoc["responses"] {
  return {
    302: {
      description: "Redirect to the stored URL",
      headers: { Location: { description: "The stored URL", schema: { type: "string" } } },
    },
    200: { description: form, content: { "text/html": { schema: { type: "string" } } } },
    ...errorResponses(
      [401, "INVALID_INPUT"],
      [429, "INVALID_INPUT"],
      "NOT_FOUND",
      "DATABASE_ERROR",
    ),
  };
}

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  shortenLink: {
    summary: "Shorten a URL",
    description: "Stores `url` under a custom `code` or a random 7-character base62 one, and " +
      "returns the link with its `manageToken` (shown once). Bodies over 8 KiB are refused (413).",
    request: {
      body: jsonBody(ShortenBody, {
        url: "https://example.com/a/long/path",
        code: "launch-2030",
        expiresAt: "2030-01-01T00:00:00Z",
      }),
    },
    responses: {
      201: jsonContent(ShortenResult, "The link was created", {
        ...EXAMPLE_LINK,
        shortUrl: "https://sho.rt/launch-2030",
        manageToken: "q2V0c2VjcmV0LXRva2VuLWV4YW1wbGUtMzItYnl0ZXMh",
      }),
      ...errorResponses(
        "INVALID_INPUT",
        "INVALID_URL",
        [413, "INVALID_INPUT"],
        [429, "INVALID_INPUT"],
        "DATABASE_ERROR",
      ),
    },
  },
  shortenLinksInBulk: {
    summary: "Shorten up to 1,000 URLs at once",
    description: "A JSON array of `POST /shorten` bodies (without `password`), or `text/csv` " +
      "with a header row: `url`, and optionally `code` and `expiresAt`. 200 with `results`, " +
      "one per input in order: the link (with its own `manageToken`) or that row's own " +
      "`{error, code}`; one bad row never fails the others. Over 1,000 rows or 1 MiB: 413.",
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: z.array(ShortenBody).max(MAX_BULK_ROWS),
            example: [
              { url: "https://example.com/a/long/path" },
              { url: "https://example.com/launch", code: "launch-2030" },
              { url: "not a url" },
            ],
          },
          "text/csv": {
            schema: { type: "string", example: "url,code\nhttps://example.com/,ex-1" },
          },
        },
      },
    },
    responses: {
      200: jsonContent(BulkResultSchema, "One result per input, in order", {
        results: [
          {
            ...EXAMPLE_LINK,
            passwordProtected: false,
            maxClicks: null,
            utm: null,
            shortUrl: "https://sho.rt/launch-2030",
            manageToken: "q2V0c2VjcmV0LXRva2VuLWV4YW1wbGUtMzItYnl0ZXMh",
          },
          { error: "Code already in use", code: "INVALID_INPUT" },
          { error: "Missing or invalid url in body", code: "INVALID_URL" },
        ],
      }),
      ...errorResponses(
        "INVALID_INPUT",
        [413, "INVALID_INPUT"],
        [429, "INVALID_INPUT"],
        "DATABASE_ERROR",
      ),
    },
  },
  resolveLink: {
    summary: "Follow a short link",
    description: "302 to the stored URL: looked up in the cache first, then in libSQL " +
      "(which then fills the cache). Unknown codes are 404 `Link not found`, expired ones " +
      "404 `Link expired`. Each GET counts as a click. A password-protected link shows a " +
      "browser (`Accept: text/html`) a password form, and takes the password of an API client " +
      "in `X-Link-Password` (401 without it or when wrong, 429 after repeated failures). A " +
      "click-limited link answers 404 `Link expired` once its `maxClicks` redirects are used.",
    responses: redirectResponses("The password form of a password-protected link (browsers)"),
  },
  resolveProtectedLink: {
    summary: "Open a password-protected link (the HTML form's submission)",
    description: "Form body `password=…` (`application/x-www-form-urlencoded`, at most 2 KiB). " +
      "The right password answers the 302; a wrong one the form again with a message (401), " +
      "and after repeated failures 429 with `Retry-After`.",
    responses: redirectResponses("The password form"),
  },
  getLinkInfo: {
    summary: "Describe a short link, with its click statistics",
    description: "Expired links are described too (`expired: true`): they keep their stats. " +
      "A password-protected link needs `Authorization: Bearer <manageToken>` (else 401).",
    responses: {
      200: jsonContent(InfoResult, "The link record and its statistics", {
        ...EXAMPLE_LINK,
        expired: false,
        ...EXAMPLE_STATS,
      }),
      ...errorResponses([401, "INVALID_INPUT"], "NOT_FOUND", "DATABASE_ERROR"),
    },
  },
  getLinkStats: {
    summary: "Click statistics of a short link",
    description: "A password-protected link needs `Authorization: Bearer <manageToken>`.",
    responses: {
      200: jsonContent(
        StatsResult,
        "Total, per day for 30 days, last click, top referrer hosts",
        { code: EXAMPLE_LINK.code, ...EXAMPLE_STATS },
      ),
      ...errorResponses([401, "INVALID_INPUT"], "NOT_FOUND", "DATABASE_ERROR"),
    },
  },
  getLinkQrCode: {
    summary: "QR code of the short URL",
    responses: {
      200: {
        description: "The QR code image",
        content: {
          "image/svg+xml": { schema: { type: "string" } },
          "image/png": { schema: { type: "string", format: "binary" } },
        },
      },
      ...errorResponses("INVALID_INPUT", "NOT_FOUND", "DATABASE_ERROR"),
    },
  },
  updateLink: {
    summary: "Change a link's target and/or expiry",
    description: "Needs `Authorization: Bearer <manageToken>`. The cache entry is removed " +
      "before the answer, so no later redirect serves the old target.",
    security: [{ [MANAGE_TOKEN_SCHEME]: [] }],
    request: { body: jsonBody(PatchBody, { url: "https://example.com/new/target" }) },
    responses: {
      200: jsonContent(LinkSchema, "The changed link", {
        ...EXAMPLE_LINK,
        url: "https://example.com/new/target",
      }),
      ...errorResponses(
        "INVALID_INPUT",
        "INVALID_URL",
        [401, "INVALID_INPUT"],
        "NOT_FOUND",
        [413, "INVALID_INPUT"],
        "DATABASE_ERROR",
        "STORAGE_ERROR",
      ),
    },
  },
  deleteLink: {
    summary: "Delete a link and its statistics",
    description: "Needs `Authorization: Bearer <manageToken>`. The code is free again afterwards.",
    security: [{ [MANAGE_TOKEN_SCHEME]: [] }],
    responses: {
      204: { description: "Deleted" },
      ...errorResponses([401, "INVALID_INPUT"], "NOT_FOUND", "DATABASE_ERROR", "STORAGE_ERROR"),
    },
  },
};

/** The components the operations refer to: the manage token's bearer scheme. */
export const COMPONENTS = {
  securitySchemes: {
    [MANAGE_TOKEN_SCHEME]: {
      type: "http",
      scheme: "bearer",
      description: "The link's `manageToken`, returned once by `POST /shorten`",
    },
  },
};
