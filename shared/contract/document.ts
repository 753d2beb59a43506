/**
 * The OpenAPI document of an experiment: the parts every app shares (the root document's
 * operation, the error body, the document's header) and, for a light app
 * (shared/contract/light_app.ts), the whole document from its route declarations. Loaded with
 * zod, on the first request that needs the document.
 */
import { createRoute, extendZodWithOpenApi, OpenAPIHono, z } from "@hono/zod-openapi";
import type { OpenApiDocument, OperationsModule, RootInfo, RouteSpec } from "./light_app.ts";
import { ErrorBodySchema, jsonContent, openapiPaths, publicByDefault } from "./openapi.ts";
import { paramsSchema } from "./validation.ts";

// In a bundle, this module's chunk may run before the one in which @hono/zod-openapi adds
// `.openapi()` to zod (esbuild's code splitting takes `z` from zod itself): add it first here
// (a no-op once done).
extendZodWithOpenApi(z);

/**
 * The errors every route may answer besides those it declares, said once in the document's
 * description rather than repeated on each operation.
 */
export const APP_WIDE_ERRORS = "\n\nEvery error is JSON `{error, code}` (see ErrorBody). Besides " +
  "the errors each route lists, any request may fail with 500 `INTERNAL_ERROR` (an unexpected " +
  "failure; `error` carries its message), and an unknown path is 404 `NOT_FOUND`.";

const RootInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  usage: z.string(),
}).openapi("RootInfo");

/** The declaration of `GET /`, the root information document. */
export function rootRoute(info: RootInfo) {
  return createRoute({
    method: "get",
    operationId: "getServiceInfo",
    path: "/",
    summary: "Root information document",
    responses: {
      200: jsonContent(RootInfoSchema, "What this experiment is and how to call it", {
        name: info.name,
        description: info.description,
        usage: info.usage,
      }),
    },
  });
}

/** The document's header: its version, title, description, license and server. */
export function documentConfig(info: RootInfo) {
  return {
    openapi: "3.1.0",
    info: {
      title: info.name,
      version: "1.0.0",
      description: info.description + APP_WIDE_ERRORS,
      license: { name: "GPL-3.0-or-later", identifier: "GPL-3.0-or-later" },
    },
    // Relative: the server is wherever this document was fetched from (local, edge, behind a proxy).
    servers: [{ url: "/" }],
  };
}

/**
 * The document of an app (built by `app.getOpenAPI31Document`, whose failures would be a bare
 * 500 outside the error contract were it `app.doc31`), with plain path templates and public
 * operations said so.
 */
// deno-lint-ignore no-explicit-any
export function finishDocument(app: OpenAPIHono<any>, info: RootInfo): OpenApiDocument {
  return publicByDefault(openapiPaths(app.getOpenAPI31Document(documentConfig(info))));
}

/**
 * The document of a light app: its root, the error body, then each route as declared (method,
 * path, operationId; parameters from the same definitions its validators are) with what
 * `operations` says of it. A route with no entry in `operations`, or an entry for no route,
 * is an error: the document describes exactly what is served.
 */
export function buildDocument(
  info: RootInfo,
  routes: readonly RouteSpec[],
  { OPERATIONS: operations, COMPONENTS: components = {} }: OperationsModule,
): OpenApiDocument {
  const doc = new OpenAPIHono();
  doc.openAPIRegistry.registerPath(rootRoute(info));
  doc.openAPIRegistry.register("ErrorBody", ErrorBodySchema);
  for (const [type, byName] of Object.entries(components)) {
    for (const [name, value] of Object.entries(byName)) {
      doc.openAPIRegistry.registerComponent(
        type as Parameters<typeof doc.openAPIRegistry.registerComponent>[0],
        name,
        value as never,
      );
    }
  }
  for (const route of routes) {
    const operation = operations[route.operationId];
    if (!operation) throw new Error(`no document entry for operation ${route.operationId}`);
    const { request, ...rest } = operation as { request?: Record<string, unknown> };
    const params: Record<string, unknown> = {};
    const field = { query: "query", path: "params", header: "headers" } as const;
    for (const place of ["query", "path", "header"] as const) {
      const some = Object.entries(route.params ?? {}).filter(([, p]) => p.in === place);
      if (some.length > 0) params[field[place]] = paramsSchema(Object.fromEntries(some));
    }
    doc.openAPIRegistry.registerPath(createRoute(
      {
        method: route.method,
        path: route.path,
        operationId: route.operationId,
        ...rest,
        request: { ...request, ...params },
      } as Parameters<typeof createRoute>[0],
    ));
  }
  const served = new Set(routes.map((r) => r.operationId));
  const unused = Object.keys(operations).filter((id) => !served.has(id));
  if (unused.length > 0) throw new Error(`document entries for no route: ${unused.join(", ")}`);
  return finishDocument(doc, info);
}
