/**
 * The app every experiment whose routes validate with zod starts from: the shared middleware,
 * the error handlers, the root information document, `GET /openapi.json` and `GET /docs`. An
 * experiment only adds routes, declared with `createRoute` so that the same schemas validate
 * requests and describe them. (An experiment whose first answer must not load zod starts from
 * shared/contract/light_app.ts instead: same middleware, same document.)
 */
import { OpenAPIHono } from "@hono/zod-openapi";
import { notFound, onError } from "./errors.ts";
import { jsonCharset, openCors, requestLog, type SharedVariables } from "./middleware.ts";
import { validationHook } from "./validation.ts";
import { ErrorBodySchema } from "./openapi.ts";
import { addDocs } from "./docs.ts";
import {
  type ExperimentOptions,
  type OpenApiDocument,
  type RootInfo,
  setDocument,
} from "./light_app.ts";
import { finishDocument, rootRoute } from "./document.ts";

// The shell's types are the light shell's (experiments on this one import them from here).
export type { ExperimentOptions, RootInfo } from "./light_app.ts";

/** The Hono app type of every experiment. */
export type ExperimentApp = OpenAPIHono<{ Variables: SharedVariables }>;

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
    rootRoute(info),
    (c) => c.json({ name: info.name, description: info.description, usage: info.usage }, 200),
  );
  app.openAPIRegistry.register("ErrorBody", ErrorBodySchema);
  // Built on the first request (every route is declared by then) and kept: it cannot change.
  let document: OpenApiDocument | undefined;
  const build = () => document ??= finishDocument(app, info);
  setDocument(app, build);
  app.get("/openapi.json", (c) => c.json(build()));
  addDocs(app, info.name);
  const { preRoute } = options;
  if (preRoute) {
    const routed = app.fetch;
    app.fetch = (req, ...rest) => preRoute(req) ?? routed(req, ...rest);
  }
  return app;
}
