/** Request and response schemas of the link-shortener routes (validation and OpenAPI alike). */
import { z } from "@hono/zod-openapi";
import { MESSAGES, urlInput } from "../../shared/contract/validation.ts";
import { CODE_PATTERN, isReservedCode } from "./codes.ts";

/** Messages of the body rules beyond the contract's own. */
export const SHORTEN_MESSAGES = {
  notObject: "Body must be a JSON object",
  code: "code must be 3 to 64 characters of A-Z, a-z, 0-9, _ or -",
  reserved: "code is reserved",
  taken: "Code already in use",
  expiresAt: "expiresAt must be an ISO 8601 date or date-time with a time zone",
  expiresPast: "expiresAt must be in the future",
  selfLink: "url must not point at this link shortener",
} as const;

/** Largest accepted body of `POST /shorten` (bytes). */
export const MAX_BODY_BYTES = 8 * 1024;

// A date, or a date-time with seconds optional and a zone (a zone-less time is ambiguous).
const ISO_INSTANT =
  /^(\d{4})-(\d{2})-(\d{2})(?:T\d{2}:\d{2}(?::\d{2}(?:\.\d{1,9})?)?(?:Z|[+-]\d{2}:?\d{2}))?$/i;

/** The instant an ISO 8601 string names (normalised, UTC), or null when it is not one. */
export function parseInstant(value: string): string | null {
  const m = ISO_INSTANT.exec(value);
  if (!m) return null;
  const [year, month, day] = [Number(m[1]), Number(m[2]), Number(m[3])];
  // Date.parse rolls 2030-02-31 over into March; a day the month lacks is invalid.
  const calendar = new Date(Date.UTC(year, month - 1, day));
  if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

const CodeInput = z.string({ error: SHORTEN_MESSAGES.code })
  .regex(CODE_PATTERN, { error: SHORTEN_MESSAGES.code })
  .refine((code) => !isReservedCode(code), { error: SHORTEN_MESSAGES.reserved });

const ExpiresInput = z.string({ error: SHORTEN_MESSAGES.expiresAt })
  .transform((value, ctx) => {
    const instant = parseInstant(value.trim());
    if (instant === null) {
      ctx.addIssue({ code: "custom", message: SHORTEN_MESSAGES.expiresAt });
      return z.NEVER;
    }
    if (Date.parse(instant) <= Date.now()) {
      ctx.addIssue({ code: "custom", message: SHORTEN_MESSAGES.expiresPast });
      return z.NEVER;
    }
    return instant;
  });

/** The body of `POST /shorten`. */
export const ShortenBody = z.object({
  url: urlInput(MESSAGES.urlInBody).openapi({
    description: "Absolute http(s) URL to shorten",
    example: "https://example.com/a/long/path",
  }),
  code: CodeInput.nullish().openapi({
    description: "Custom code (`^[A-Za-z0-9_-]{3,64}$`, not a reserved path); " +
      "without it a random 7-character base62 code is generated",
    example: "launch-2030",
  }),
  expiresAt: ExpiresInput.nullish().openapi({
    description: "When the link stops working: an ISO 8601 instant in the future " +
      "(a date alone means its midnight UTC); without it the link never expires",
    example: "2030-01-01T00:00:00Z",
  }),
}, { error: SHORTEN_MESSAGES.notObject }).openapi("ShortenRequest");

/** A stored link. */
export const LinkSchema = z.object({
  code: z.string().openapi({ example: "aZ3k9Qx" }),
  url: z.string().openapi({ example: "https://example.com/a/long/path" }),
  createdAt: z.string().openapi({ example: "2026-01-01T12:00:00.000Z" }),
  expiresAt: z.string().nullable().openapi({ example: null }),
}).openapi("Link");

/** The answer of `POST /shorten`. */
export const ShortenResult = LinkSchema.extend({
  shortUrl: z.string().openapi({ example: "https://sho.rt/aZ3k9Qx" }),
}).openapi("ShortenResult");

/** The path parameter of the code routes. */
export const CodeParams = z.object({
  code: z.string().openapi({
    param: { name: "code", in: "path", required: true },
    description: "The short code",
    example: "aZ3k9Qx",
  }),
});
