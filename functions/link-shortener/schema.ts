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
  nothingToChange: "Give url and/or expiresAt to change",
  qrFormat: "format must be svg or png",
  qrSize: "size must be an integer from 64 to 2048",
  qrMargin: "margin must be an integer from 0 to 16",
  qrEcc: "ecc must be L, M, Q or H",
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
  manageToken: z.string().openapi({
    description: "Secret for `PATCH`/`DELETE /{code}` (`Authorization: Bearer <token>`). " +
      "Shown once: only its hash is stored.",
    example: "q2V0c2VjcmV0LXRva2VuLWV4YW1wbGUtMzItYnl0ZXMh",
  }),
}).openapi("ShortenResult");

/** The body of `PATCH /{code}`: the fields to change (at least one). */
export const PatchBody = z.object({
  url: urlInput(MESSAGES.urlInBody).optional().openapi({
    description: "New absolute http(s) target",
    example: "https://example.com/new/target",
  }),
  expiresAt: ExpiresInput.nullable().optional().openapi({
    description: "New expiry (ISO 8601 instant in the future), or null for never",
    example: "2031-01-01T00:00:00Z",
  }),
}, { error: SHORTEN_MESSAGES.notObject })
  .refine((b) => b.url !== undefined || b.expiresAt !== undefined, {
    error: SHORTEN_MESSAGES.nothingToChange,
  })
  .openapi("PatchLinkRequest");

/** Click statistics of a link. */
export const StatsSchema = z.object({
  totalClicks: z.number().int().openapi({ example: 42 }),
  lastClickAt: z.string().nullable().openapi({ example: "2026-01-02T10:00:00.000Z" }),
  clicksByDay: z.array(z.object({ date: z.string(), clicks: z.number().int() })).openapi({
    description: "The last 30 UTC days, oldest first, days without clicks included",
  }),
  topReferrers: z.array(z.object({ host: z.string(), clicks: z.number().int() })).openapi({
    description: "Referrer hosts with the most clicks (at most 10; hosts only)",
  }),
});

/** The answer of `GET /{code}/stats`. */
export const StatsResult = StatsSchema.extend({ code: z.string() }).openapi("LinkStats");

/** The answer of `GET /{code}/info`: the link, whether it has expired, and its statistics. */
export const InfoResult = LinkSchema.extend({ expired: z.boolean() }).extend(StatsSchema.shape)
  .openapi("LinkInfo");

/**
 * A query integer from `min` to `max` written in decimal digits only: `Number()` would also
 * take `1e3`, `0x100` and ` 256`.
 */
function decimal(min: number, max: number, message: string) {
  return z.string({ error: message }).regex(/^\d{1,6}$/, { error: message }).transform(Number)
    .pipe(z.number().min(min, { error: message }).max(max, { error: message }));
}

/** The query of `GET /{code}/qr`. */
export const QrQuery = z.object({
  format: z.enum(["svg", "png"], { error: SHORTEN_MESSAGES.qrFormat }).default("svg").openapi({
    param: { name: "format", in: "query" },
    description: "Image format (default svg)",
  }),
  size: decimal(64, 2048, SHORTEN_MESSAGES.qrSize).default(256)
    .openapi({
      param: { name: "size", in: "query" },
      description: "Width in pixels (default 256)",
    }),
  margin: decimal(0, 16, SHORTEN_MESSAGES.qrMargin).default(4)
    .openapi({
      param: { name: "margin", in: "query" },
      description: "Quiet zone in modules (default 4)",
    }),
  ecc: z.enum(["L", "M", "Q", "H"], { error: SHORTEN_MESSAGES.qrEcc }).default("M").openapi({
    param: { name: "ecc", in: "query" },
    description: "Error-correction level (default M)",
  }),
});

/** The path parameter of the code routes. */
export const CodeParams = z.object({
  code: z.string().openapi({
    param: { name: "code", in: "path", required: true },
    description: "The short code",
    example: "aZ3k9Qx",
  }),
});
