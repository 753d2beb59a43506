/**
 * The app every experiment starts from: the shared middleware, the error handlers, the root
 * information document, `GET /openapi.json` and `GET /docs`. An experiment only adds routes,
 * declared with `createRoute` so that the same schemas validate requests and describe them.
 */
import { createRoute, OpenAPIHono, z } from "@hono/zod-openapi";
import { notFound, onError } from "./errors.ts";
import { jsonCharset, openCors, requestLog, type SharedVariables } from "./middleware.ts";
import type { LogSink } from "./log.ts";
import { validationHook } from "./validation.ts";
import { ErrorBodySchema, jsonContent, openapiPaths, publicByDefault } from "./openapi.ts";
import { addDocs } from "./docs.ts";

/** The root information document of the contract. */
export interface RootInfo {
  /** Experiment name (its slug). */
  name: string;
  /** What the experiment does. */
  description: string;
  /** `<METHOD> <path>?<param>=<value>`, e.g. `GET /analyze?url=<url>`. */
  usage: string;
}

/** The Hono app type of every experiment. */
export type ExperimentApp = OpenAPIHono<{ Variables: SharedVariables }>;

const RootInfoSchema = z.object({
  name: z.string(),
  description: z.string(),
  usage: z.string(),
}).openapi("RootInfo");

/**
 * The errors every route may answer besides those it declares, said once in the document's
 * description rather than repeated on each operation.
 */
export const APP_WIDE_ERRORS = "\n\nEvery error is JSON `{error, code}` (see ErrorBody). Besides " +
  "the errors each route lists, any request may fail with 500 `INTERNAL_ERROR` (an unexpected " +
  "failure; `error` carries its message), and an unknown path is 404 `NOT_FOUND`.";

/** An app's OpenAPI document, as `GET /openapi.json` serves it. */
// deno-lint-ignore no-explicit-any
export type OpenApiDocument = Record<string, any>;

/** The document of each app the shell built (see {@link openapiDocument}). */
const documents = new WeakMap<object, () => OpenApiDocument>();

/**
 * The OpenAPI document `app` serves at `/openapi.json`, without a request: the MCP endpoint
 * derives its tools from it (shared/contract/mcp.ts).
 */
export function openapiDocument(app: ExperimentApp): OpenApiDocument {
  const build = documents.get(app);
  if (!build) throw new Error("not an app of createExperimentApp");
  return build();
}

/** Options of the app shell. */
export interface ExperimentOptions {
  /** Where the log lines go (default stderr). */
  log?: LogSink;
  /**
   * Answers a request before the router, or returns null to route it. For a hot path that
   * must skip the middleware chain (the shortener's cached redirect); it must answer exactly
   * as the routed request would (headers and log line included).
   */
  preRoute?: (req: Request) => Response | null;
}

/** Creates an experiment's app with everything but its own routes. */
export function createExperimentApp(
  info: RootInfo,
  options: ExperimentOptions = {},
): ExperimentApp {
  const app: ExperimentApp = new OpenAPIHono({ defaultHook: validationHook });
  app.use(requestLog(options.log));
  app.use(openCors);
  app.use(jsonCharset);
  app.onError(onError);
  app.notFound(notFound);

  app.openapi(
    createRoute({
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
    }),
    (c) => c.json({ name: info.name, description: info.description, usage: info.usage }, 200),
  );
  app.openAPIRegistry.register("ErrorBody", ErrorBodySchema);
  const docConfig = {
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
  // Not `app.doc31`: its failures would be a bare 500 outside the error contract, and the
  // regex-constrained path parameters must be plain OpenAPI templates.
  // Built on the first request (every route is declared by then) and kept: it cannot change.
  let document: OpenApiDocument | undefined;
  const build = () =>
    document ??= publicByDefault(openapiPaths(app.getOpenAPI31Document(docConfig)));
  documents.set(app, build);
  app.get("/openapi.json", (c) => c.json(build()));
  addDocs(app, info.name);
  const { preRoute } = options;
  if (preRoute) {
    const routed = app.fetch;
    app.fetch = (req, ...rest) => preRoute(req) ?? routed(req, ...rest);
  }
  return app;
}
