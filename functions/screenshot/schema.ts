/** The `/screenshot` request and response schemas. */
import { isCssSelector } from "./css_selector.ts";
import { z } from "@hono/zod-openapi";
import { UrlQuery } from "../../shared/contract/validation.ts";
import { RANGES } from "./limits.ts";

/**
 * An optional numeric query parameter within a range; anything else is 400 INVALID_INPUT
 * with a message naming the parameter and its range.
 */
function rangeParam(name: keyof typeof RANGES, integer: boolean, description: string) {
  const { min, max } = RANGES[name];
  const message = `${name} must be ${integer ? "an integer" : "a number"} from ${min} to ${max}`;
  return z.string({ error: message }).optional().transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    // Plain decimals only: Number() would also take "1e3", "0x400" and " 800 ".
    const n = Number(raw);
    const ok = (integer ? /^\d+$/ : /^\d+(\.\d+)?$/).test(raw) && n >= min && n <= max;
    if (!ok) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return n;
  }).openapi({
    param: { name, in: "query", required: false },
    type: integer ? "integer" : "number",
    minimum: min,
    maximum: max,
    description,
  });
}

const FULL_PAGE_MESSAGE = "fullPage must be true or false";

/** An optional `true`/`false` query parameter; anything else is 400 naming it. */
function boolParam(name: string, description: string) {
  const message = `${name} must be true or false`;
  return z.string({ error: message }).optional().transform((raw, ctx) => {
    if (raw === undefined || raw === "false") return false;
    if (raw === "true") return true;
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  }).openapi({ param: { name, in: "query", required: false }, type: "boolean", description });
}

/** An optional query parameter from a fixed list; anything else is 400 naming it. */
function enumParam<T extends string>(name: string, values: readonly T[], description: string) {
  const message = `${name} must be one of ${values.join(", ")}`;
  return z.string({ error: message }).optional().transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    if ((values as readonly string[]).includes(raw)) return raw as T;
    ctx.addIssue({ code: "custom", message });
    return z.NEVER;
  }).openapi({
    param: { name, in: "query", required: false },
    type: "string",
    enum: [...values],
    description,
  });
}

/** Image formats and their Content-Type. */
export const FORMATS = { png: "image/png", jpeg: "image/jpeg", webp: "image/webp" } as const;

/** An image format. */
export type ImageFormat = keyof typeof FORMATS;

/** Longest accepted `selector`, in characters. */
export const MAX_SELECTOR_LENGTH = 500;

/** Longest `waitFor` in milliseconds (it also counts against the navigation timeout). */
export const MAX_WAIT_FOR_MS = 10_000;

const WAIT_FOR_MESSAGE = `waitFor must be milliseconds from 0 to ${MAX_WAIT_FOR_MS} or a CSS ` +
  `selector of at most ${MAX_SELECTOR_LENGTH} characters`;

const SELECTOR_MESSAGE =
  `selector must be a CSS selector of 1 to ${MAX_SELECTOR_LENGTH} characters`;

/** `?url=` plus the optional capture parameters. */
export const ScreenshotQuery = UrlQuery.extend({
  width: rangeParam("width", true, "Viewport width in CSS pixels (default 1280)"),
  height: rangeParam("height", true, "Viewport height in CSS pixels (default 800)"),
  fullPage: z.string({ error: FULL_PAGE_MESSAGE }).optional().transform((raw, ctx) => {
    if (raw === undefined || raw === "false") return false;
    if (raw === "true") return true;
    ctx.addIssue({ code: "custom", message: FULL_PAGE_MESSAGE });
    return z.NEVER;
  }).openapi({
    param: { name: "fullPage", in: "query", required: false },
    type: "boolean",
    description: "`true` captures the whole scrollable page (up to 16384 device pixels high)",
  }),
  deviceScaleFactor: rangeParam(
    "deviceScaleFactor",
    false,
    "Device pixel ratio; the PNG is this many times the viewport (default 1)",
  ),
  format: enumParam(
    "format",
    Object.keys(FORMATS) as ImageFormat[],
    "Image format (default png); Content-Type matches",
  ),
  quality: rangeParam("quality", true, "Quality of jpeg and webp (default 80); not for png"),
  colorScheme: enumParam(
    "colorScheme",
    ["light", "dark"] as const,
    "Emulated `prefers-color-scheme` (default: the browser's, light)",
  ),
  reducedMotion: boolParam("reducedMotion", "`true` emulates `prefers-reduced-motion: reduce`"),
  omitBackground: boolParam(
    "omitBackground",
    "`true` makes the default white background transparent (png and webp only)",
  ),
  selector: z.string({ error: SELECTOR_MESSAGE }).optional().transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    if (raw.trim().length === 0 || raw.length > MAX_SELECTOR_LENGTH || !isCssSelector(raw)) {
      ctx.addIssue({ code: "custom", message: SELECTOR_MESSAGE });
      return z.NEVER;
    }
    return raw;
  }).openapi({
    param: { name: "selector", in: "query", required: false },
    type: "string",
    maxLength: MAX_SELECTOR_LENGTH,
    description: "CSS selector of one element to capture (its box); 502 when none matches",
  }),
  waitFor: z.string({ error: WAIT_FOR_MESSAGE }).optional().transform((raw, ctx) => {
    if (raw === undefined) return undefined;
    if (/^\d+$/.test(raw)) {
      const ms = Number(raw);
      if (ms <= MAX_WAIT_FOR_MS) return ms;
    } else if (raw.trim().length > 0 && raw.length <= MAX_SELECTOR_LENGTH && isCssSelector(raw)) {
      return raw;
    }
    ctx.addIssue({ code: "custom", message: WAIT_FOR_MESSAGE });
    return z.NEVER;
  }).openapi({
    param: { name: "waitFor", in: "query", required: false },
    type: "string",
    description: `After network idle: milliseconds to wait (0-${MAX_WAIT_FOR_MS}), or a CSS ` +
      "selector that must appear (502 when it does not within the navigation timeout)",
  }),
});

/** The 200 body: image bytes (PNG unless `format` says otherwise). */
export const PngSchema = z.string().openapi({ type: "string", format: "binary" });
