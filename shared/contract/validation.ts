/**
 * Request validation through the route schemas: the shared schemas of the contract's inputs
 * and the one hook that turns a schema failure into the contract's exact error body.
 */
import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { readBodyLimited } from "./body_limit.ts";
import { ApiError, type ErrorCode } from "./errors.ts";
import { MESSAGES, type Param, type Params, type ParamValues, URL_QUERY } from "./params.ts";
import { parseUrlInput } from "./url_rule.ts";

export { MESSAGES };

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

/** The schema of one parameter: its type for the document, its own `parse` for the value. */
function paramSchema<T>(name: string, param: Param<T>) {
  const type = param.values
    ? z.enum(param.values, { error: param.message })
    : z.string({ error: param.message });
  const parsed = type.transform((value, ctx): T => {
    try {
      return param.parse(value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.addIssue({ code: "custom", message: err.message, params: { error: err } });
      return z.NEVER;
    }
  });
  const meta = {
    param: { name, in: param.in, required: param.required },
    description: param.description,
    ...(param.example === undefined ? {} : { example: param.example }),
  };
  return param.required ? parsed.openapi(meta) : parsed.optional().openapi(meta);
}

/**
 * The zod schema of a route's parameters (shared/contract/params.ts), for a route declaration:
 * the document's parameters are made from it, and an OpenAPIHono route that validates with it
 * runs each parameter's own `parse` (the same error, whichever shell serves the route).
 */
export function paramsSchema<P extends Params>(
  params: P,
): z.ZodObject<{ [K in keyof P]: z.ZodType<ParamValues<P>[K]> }> {
  const shape: Record<string, z.ZodType> = {};
  for (const [name, param] of Object.entries(params)) shape[name] = paramSchema(name, param);
  return z.object(shape) as unknown as z.ZodObject<
    { [K in keyof P]: z.ZodType<ParamValues<P>[K]> }
  >;
}

/** `?url=` of the fetch-and-parse, summary and screenshot routes (params.ts's URL_QUERY). */
export const UrlQuery = paramsSchema(URL_QUERY);

/** The error raised for the first issue of a failed validation. */
export function validationError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  // A parameter's own parse (paramsSchema) failed: its error as it is.
  const own = issue?.code === "custom" ? issue.params?.error : undefined;
  if (own instanceof ApiError) return own;
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
