/** Request and response schemas of the link-shortener routes (validation and OpenAPI alike). */
import { z } from "@hono/zod-openapi";
import { MESSAGES, urlInput } from "../../shared/contract/validation.ts";
import { CODE_PATTERN, isReservedCode } from "./codes.ts";
import { MAX_PASSWORD_LENGTH } from "./password.ts";
import { MAX_UTM_VALUE, UTM_FIELDS, UTM_MESSAGE, type UtmField } from "./utm.ts";
import { SHORTEN_MESSAGES } from "./messages.ts";

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

/** Largest `maxClicks`. */
export const MAX_CLICKS_LIMIT = 1_000_000_000;

const PasswordInput = z.string({ error: SHORTEN_MESSAGES.password })
  .min(1, { error: SHORTEN_MESSAGES.password })
  .max(MAX_PASSWORD_LENGTH, { error: SHORTEN_MESSAGES.password });

const MaxClicksInput = z.number({ error: SHORTEN_MESSAGES.maxClicks })
  .int({ error: SHORTEN_MESSAGES.maxClicks })
  .min(1, { error: SHORTEN_MESSAGES.maxClicks })
  .max(MAX_CLICKS_LIMIT, { error: SHORTEN_MESSAGES.maxClicks });

const UtmValue = z.string({ error: UTM_MESSAGE }).min(1, { error: UTM_MESSAGE })
  .max(MAX_UTM_VALUE, { error: UTM_MESSAGE });

/** The `utm` body field (unknown keys refused, so a typo is not silently dropped). */
export const UtmInput = z.strictObject(
  Object.fromEntries(UTM_FIELDS.map((f) => [f, UtmValue.optional()])) as Record<
    UtmField,
    z.ZodOptional<typeof UtmValue>
  >,
  { error: UTM_MESSAGE },
).refine((utm) => UTM_FIELDS.some((f) => utm[f] !== undefined), { error: UTM_MESSAGE })
  .openapi({
    description: "UTM parameters set on the target's query (utm_source, …); other query " +
      "parameters are kept",
    example: { source: "newsletter", medium: "email", campaign: "spring launch" },
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
  password: PasswordInput.nullish().openapi({
    description: "Password the redirect asks for (a browser gets a form; an API client " +
      "sends it in `X-Link-Password`). Stored as a salted PBKDF2 hash only",
    example: "open sesame",
  }),
  maxClicks: MaxClicksInput.nullish().openapi({
    description: "Redirects allowed in all; after them the link answers 404 `Link expired`",
    example: 100,
  }),
  utm: UtmInput.nullish(),
}, { error: SHORTEN_MESSAGES.notObject }).openapi("ShortenRequest");

/** A stored link. */
export const LinkSchema = z.object({
  code: z.string().openapi({ example: "aZ3k9Qx" }),
  url: z.string().openapi({ example: "https://example.com/a/long/path" }),
  createdAt: z.string().openapi({ example: "2026-01-01T12:00:00.000Z" }),
  expiresAt: z.string().nullable().openapi({ example: null }),
  passwordProtected: z.boolean().optional().openapi({ example: false }),
  maxClicks: z.number().int().nullable().optional().openapi({ example: null }),
  utm: z.record(z.string(), z.string()).nullable().optional().openapi({
    example: { source: "newsletter" },
  }),
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
  utm: UtmInput.nullable().optional().openapi({
    description: "New UTM parameters (replacing the link's), or null to remove them",
  }),
}, { error: SHORTEN_MESSAGES.notObject })
  .refine((b) => b.url !== undefined || b.expiresAt !== undefined || b.utm !== undefined, {
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
export const InfoResult = LinkSchema.extend({
  expired: z.boolean(),
  clicksLeft: z.number().int().nullable().optional().openapi({
    description: "Redirects left of `maxClicks` (null: no limit)",
  }),
}).extend(StatsSchema.shape).openapi("LinkInfo");

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

/** The answer of `POST /shorten/bulk`: one entry per input, in order. */
export const BulkResultSchema = z.object({
  results: z.array(
    z.union([
      ShortenResult,
      z.object({ error: z.string(), code: z.string() }).openapi("BulkRowError"),
    ]),
  ),
}).openapi("BulkResult");
