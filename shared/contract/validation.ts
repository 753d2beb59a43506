/**
 * The zod side of the contract's inputs: the `url` body field, and the schemas of route
 * parameters made from their definitions (params.ts) for route declarations. Loaded with zod:
 * by the document and by a JSON body's schema.
 */
import { extendZodWithOpenApi, z } from "@hono/zod-openapi";
import { ApiError } from "./errors.ts";
import { MESSAGES, type Param, type Params, type ParamValues } from "./params.ts";
import { parseUrlInput } from "./url_rule.ts";

// In a bundle, this module's chunk may run before the one in which @hono/zod-openapi adds
// `.openapi()` to zod (esbuild's code splitting takes `z` from zod itself): add it first here
// (a no-op once done).
extendZodWithOpenApi(z);

export { MESSAGES };
export { readJsonBody, validationError } from "./params.ts";

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
  // A non-string one (param.schema.type) takes its raw value as readParams gives it (a list).
  const type = param.schema?.type
    ? z.unknown()
    : param.values
    ? z.enum(param.values, { error: param.message })
    : z.string({ error: param.message });
  // Optional ones too go through parse, which gives the default of an absent one.
  const parsed = (param.required ? type : type.optional()).transform((value, ctx): T => {
    try {
      return param.parse(value);
    } catch (err) {
      if (!(err instanceof ApiError)) throw err;
      ctx.addIssue({ code: "custom", message: err.message, params: { error: err } });
      return z.NEVER;
    }
  });
  const meta = {
    param: {
      name,
      in: param.in,
      required: param.required,
      ...(param.schema?.type === "array" ? { style: "form" as const, explode: true } : {}),
    },
    ...param.schema,
    ...(param.pattern === undefined ? {} : { pattern: param.pattern }),
    ...(param.default === undefined ? {} : { default: param.default }),
    description: param.description,
    ...(param.example === undefined ? {} : { example: param.example }),
  };
  return parsed.openapi(meta);
}

/**
 * The zod schema of a route's parameters (shared/contract/params.ts), for a route declaration:
 * the document's parameters are made from it, and it runs each parameter's own `parse`.
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
