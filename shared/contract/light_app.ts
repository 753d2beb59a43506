/**
 * The app shell whose routes are answered without zod: a plain Hono app with the shared
 * middleware and error handlers, the root information document, `GET /openapi.json` and
 * `GET /docs`, where each route reads its parameters with their own validators
 * (shared/contract/params.ts) and the OpenAPI document is built on its first use
 * (shared/contract/document.ts) from the same route declarations and the experiment's response
 * schemas (its `operations` module, loaded then).
 *
 * Why: zod and the route schemas cost a new instance more than fetching a page does (the first
 * answer of `bench/cold_path.ts`), and only the document needs them.
 */
import { type Context, Hono } from "hono";
import { notFound, onError } from "./errors.ts";
import { jsonCharset, openCors, requestLog, type SharedVariables } from "./middleware.ts";
import type { LogSink } from "./log.ts";
import { type Params, type ParamValues, readParams } from "./params.ts";
import { addDocs } from "./docs.ts";
import { onFirstUse } from "./lazy.ts";

/** The root information document of the contract. */
export interface RootInfo {
  /** Experiment name (its slug). */
  name: string;
  /** What the experiment does. */
  description: string;
  /** `<METHOD> <path>?<param>=<value>`, e.g. `GET /analyze?url=<url>`. */
  usage: string;
}

/** An app's OpenAPI document, as `GET /openapi.json` serves it. */
// deno-lint-ignore no-explicit-any
export type OpenApiDocument = Record<string, any>;

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

/** The document of each app a shell built (see {@link openapiDocument}). */
const documents = new WeakMap<object, () => OpenApiDocument | Promise<OpenApiDocument>>();

/** Makes `build` the document of `app` (each shell calls it once). */
export function setDocument(
  app: object,
  build: () => OpenApiDocument | Promise<OpenApiDocument>,
): void {
  documents.set(app, build);
}

/**
 * The OpenAPI document `app` serves at `/openapi.json`, without a request: the MCP endpoint
 * derives its tools from it (shared/contract/mcp.ts).
 */
export async function openapiDocument(app: object): Promise<OpenApiDocument> {
  const build = documents.get(app);
  if (!build) throw new Error("not an app of an experiment shell");
  return await build();
}

/** A route of a light app: what the router and the document both read. */
export interface RouteSpec<P extends Params = Params> {
  /** `head` is for the document only: Hono answers a HEAD request with the GET route. */
  method: "get" | "head" | "post" | "put" | "patch" | "delete";
  /** The path in OpenAPI form (`/metadata`, `/{code}`). */
  path: string;
  /** Names the route in the document and for MCP; its `operations` entry has the same key. */
  operationId: string;
  /** Its query and path parameters, checked in order before the handler runs. */
  params?: P;
}

/**
 * What the document says of an operation beyond its RouteSpec: `summary`, `description`,
 * `responses` (zod schemas), and anything else of `createRoute` (`security`, `request.body`).
 * Typed loosely here so that this module does not load zod; document.ts checks it.
 */
export type OperationDoc = Record<string, unknown> & { summary: string };

/** An experiment's `operations` module: its OperationDoc per operationId. */
export interface OperationsModule {
  OPERATIONS: Record<string, OperationDoc>;
  /** Components the operations refer to, by type and name (`securitySchemes`). */
  COMPONENTS?: Record<string, Record<string, unknown>>;
}

/** The Hono app type of an experiment. */
export type LightApp = Hono<{ Variables: SharedVariables }>;

/** The routes added to each light app, in order (the document lists them so). */
const routesOf = new WeakMap<LightApp, RouteSpec[]>();

/**
 * Creates an experiment's light app with everything but its own routes; `operations` imports
 * the module of its OperationDocs (write `() => import("./operations.ts")` literally), loaded
 * by the first request for the document (`/openapi.json`, `/docs`' page, `POST /mcp`).
 */
export function createLightApp(
  info: RootInfo,
  operations: () => Promise<OperationsModule>,
  options: ExperimentOptions = {},
): LightApp {
  const app: LightApp = new Hono();
  app.use(requestLog(options.log));
  app.use(openCors);
  app.use(jsonCharset);
  app.onError(onError);
  app.notFound(notFound);
  const { name, description, usage } = info;
  app.get("/", (c) => c.json({ name, description, usage }, 200));
  const routes: RouteSpec[] = [];
  routesOf.set(app, routes);
  // Built once, on first use, after every route is added; a failed load is retried.
  const load = async () => {
    const [{ buildDocument }, ops] = await Promise.all([import("./document.ts"), operations()]);
    return buildDocument(info, routes, ops);
  };
  let document = onFirstUse(load);
  const build = async () => {
    try {
      return await document();
    } catch (err) {
      document = onFirstUse(load);
      throw err;
    }
  };
  setDocument(app, build);
  app.get("/openapi.json", async (c) => c.json(await build()));
  addDocs(app, info.name);
  const { preRoute } = options;
  if (preRoute) {
    const routed = app.fetch;
    app.fetch = (req, ...rest) => preRoute(req) ?? routed(req, ...rest);
  }
  return app;
}

/** The routes added to a light app, in order (empty for any other app). */
export function routeSpecs(app: object): readonly RouteSpec[] {
  return routesOf.get(app as LightApp) ?? [];
}

/** `/{code}` as Hono's `/:code`. */
function honoPath(path: string): string {
  return path.replace(/\{(\w+)\}/g, ":$1");
}

/**
 * Adds a route to a light app: its parameters are read and checked (the first bad one is its
 * contract error), then `handler` answers with them.
 */
export function addRoute<P extends Params>(
  app: LightApp,
  spec: RouteSpec<P>,
  handler: (
    c: Context<{ Variables: SharedVariables }>,
    params: ParamValues<P>,
  ) => Response | Promise<Response>,
): void {
  const routes = routesOf.get(app);
  if (!routes) throw new Error("not an app of createLightApp");
  routes.push(spec);
  const params = spec.params ?? ({} as P);
  app.on(spec.method.toUpperCase(), honoPath(spec.path), (c) => handler(c, readParams(c, params)));
}
