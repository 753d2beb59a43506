/** The `/screenshot` request and response schemas. */
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
});

/** The 200 body: PNG bytes. */
export const PngSchema = z.string().openapi({ type: "string", format: "binary" });
