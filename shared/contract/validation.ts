/**
 * Request validation through the route schemas: the shared schemas of the contract's inputs
 * and the one hook that turns a schema failure into the contract's exact error body.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { readBodyLimited } from "./body_limit.ts";
import { ApiError, type ErrorCode } from "./errors.ts";
import { parseUrlInput } from "./url_rule.ts";

/** The contract's validation messages. */
export const MESSAGES = {
  url: "Missing or invalid url",
  urlInBody: "Missing or invalid url in body",
  missingKey: "Missing key",
  invalidJson: "Invalid JSON",
} as const;

/**
 * The code each contract message carries (`null`: the code-less `/object` body). A schema
 * message not listed here is an INVALID_INPUT with that message.
 */
const CODE_OF_MESSAGE: Record<string, ErrorCode | null> = {
  [MESSAGES.url]: "INVALID_URL",
  [MESSAGES.urlInBody]: "INVALID_URL",
  [MESSAGES.missingKey]: null,
};

/** A `url` input under the URL input rule; parses to its normalised string form. */
export function urlInput(message: string = MESSAGES.url) {
  return z.string({ error: message }).transform((value, ctx) => {
    const url = parseUrlInput(value);
    if (url === null) {
      ctx.addIssue({ code: "custom", message });
      return z.NEVER;
    }
    return url;
  });
}

/** `?url=` of the fetch-and-parse, summary and screenshot routes. */
export const UrlQuery = z.object({
  url: urlInput().openapi({
    param: { name: "url", in: "query", required: true },
    description: "Absolute http(s) URL of the page",
    example: "https://example.com/",
  }),
});

/** The error raised for the first issue of a failed validation. */
export function validationError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  const message = issue?.message ?? "Invalid input";
  const code = message in CODE_OF_MESSAGE ? CODE_OF_MESSAGE[message] : "INVALID_INPUT";
  return new ApiError(code, message);
}

/** The `defaultHook` of every app: a failed validation throws the contract error. */
export function validationHook(
  result: { success: boolean; error?: z.ZodError },
  _c: Context,
): void {
  if (!result.success && result.error) throw validationError(result.error);
}

/**
 * Reads a JSON body of at most `maxBytes` and validates it with `schema`: a body over the
 * cap is 413 INVALID_INPUT as soon as the count passes it (see body_limit.ts; chunked bodies
 * are never read whole first), one that is not JSON is 400 INVALID_INPUT "Invalid JSON",
 * whatever the Content-Type says (curl's `-d` sends form encoding by default).
 */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  maxBytes: number,
): Promise<z.output<T>> {
  const bytes = await readBodyLimited(c.req.raw, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ApiError("INVALID_INPUT", MESSAGES.invalidJson);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}
