/** Building blocks of route declarations: JSON content, the error body, error responses. */
import { extendZodWithOpenApi, z } from "@hono/zod-openapi";
import { ERROR_STATUS, type ErrorCode } from "./errors.ts";

// In a bundle, this module's chunk may run before the one in which @hono/zod-openapi adds
// `.openapi()` to zod (esbuild's code splitting takes `z` from zod itself): add it first here
// (a no-op once done).
extendZodWithOpenApi(z);

/** The error body of the contract. */
export const ErrorBodySchema = z.object({
  error: z.string().openapi({ description: "Human-readable message" }),
  code: z.enum(Object.keys(ERROR_STATUS) as [ErrorCode, ...ErrorCode[]]).optional().openapi({
    description: "Error code; absent only in the `/object` missing-key body",
  }),
}).openapi("ErrorBody");

/**
 * A JSON response declaration; `example` is the whole answer `/openapi.json` shows (tools check
 * it against the schema).
 */
export function jsonContent<T extends z.ZodType>(
  schema: T,
  description: string,
  example?: unknown,
) {
  const media = example === undefined ? { schema } : { schema, example };
  return { description, content: { "application/json": media } };
}

/** A JSON request body declaration, with the example request `/openapi.json` shows. */
export function jsonBody<T extends z.ZodType>(schema: T, example: unknown) {
  return { required: true, content: { "application/json": { schema, example } } };
}

/** An error a route may answer with: a code, or `[status, code]` where HTTP demands another status. */
export type DeclaredError = ErrorCode | [number, ErrorCode];

/** The error responses of a route, grouped by status, each naming its codes. */
export function errorResponses(...errors: DeclaredError[]) {
  const byStatus = new Map<number, string[]>();
  for (const e of errors) {
    const [status, code] = Array.isArray(e) ? e : [ERROR_STATUS[e], e];
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<number, ReturnType<typeof jsonContent<typeof ErrorBodySchema>>> = {};
  for (const [status, codes] of byStatus) {
    out[status] = jsonContent(ErrorBodySchema, codes.join(", "));
  }
  return out;
}

/** `{key{.+}}`: a path parameter with a Hono regex constraint (one level of inner braces). */
const CONSTRAINED_PARAM = /\{(\w+)\{(?:[^{}]|\{[^{}]*\})*\}\}/g;

/**
 * The document with each path template in OpenAPI form: a parameter declared with a Hono
 * regex constraint (`/public/{key{.+}}`, so that it may span `/`) is written `/public/{key}`.
 */
export function openapiPaths<T extends { paths?: Record<string, object> }>(doc: T): T {
  if (!doc.paths) return doc;
  const paths: Record<string, object> = {};
  for (const [path, item] of Object.entries(doc.paths)) {
    const plain = path.replace(CONSTRAINED_PARAM, "{$1}");
    paths[plain] = { ...paths[plain], ...item };
  }
  return { ...doc, paths };
}

const OPERATION_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

/**
 * The document with `security: []` on every operation that declares no security: such a route
 * is public, and saying so lets tools (Redocly's `security-defined`, generated clients, the
 * try-it of `/docs`) tell it from one whose requirement was forgotten. A route that needs a
 * token declares `security` in its `createRoute` and its scheme in the registry.
 */
export function publicByDefault<T extends { paths?: Record<string, object> }>(doc: T): T {
  if (!doc.paths) return doc;
  const paths: Record<string, object> = {};
  for (const [path, item] of Object.entries(doc.paths) as [string, Record<string, unknown>][]) {
    const out: Record<string, unknown> = { ...item };
    for (const method of OPERATION_METHODS) {
      const op = item[method] as { security?: unknown } | undefined;
      if (op && op.security === undefined) out[method] = { ...op, security: [] };
    }
    paths[path] = out;
  }
  return { ...doc, paths };
}
