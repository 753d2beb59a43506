/**
 * A light front for an experiment's app, so that a cold start does not build it: `GET /` (the
 * root information document) is answered by a plain Hono app with the shared middleware, and
 * every other request by the experiment's app, imported and built on the first such request.
 *
 * Why: the app's zod schemas and zod-openapi route declarations are built when its module is
 * evaluated, and zod alone costs more start-up than a whole Hono hello-world
 * (README "Build"). A deployment that is only probed on `GET /` never pays for them; the first
 * routed request does, once. The front answers `GET /` exactly as the app would (same
 * middleware: request id, CORS, JSON charset, one log line; same error handlers).
 */
import { Hono } from "hono";
import type { RootInfo } from "./light_app.ts";
import { notFound, onError } from "./errors.ts";
import { jsonCharset, openCors, requestLog, type SharedVariables } from "./middleware.ts";
import { onFirstUse } from "./lazy.ts";

/** What serves requests: an app, or anything with its `fetch`. */
export interface Fetcher {
  fetch: (req: Request) => Response | Promise<Response>;
}

/** An experiment's app, loaded on first use, with the root document served before it. */
export interface LazyApp<B> {
  root: RootInfo;
  /** Imports the module of `createApp` (write `() => import("./app.ts")` literally). */
  load: () => Promise<{ createApp: (bindings: B) => Fetcher }>;
}

/** Declares a lazily loaded app (main.ts: `lazyApp(ROOT, () => import("./app.ts"))`). */
export function lazyApp<B>(root: RootInfo, load: LazyApp<B>["load"]): LazyApp<B> {
  return { root, load };
}

/**
 * The fetch handler of a lazy app over `bindings`: `GET`/`HEAD /` from the front, the rest from
 * the app, built once on the first request that needs it (a failed import is retried by the
 * next request, and answered 500 `INTERNAL_ERROR` by the front's error handler meanwhile).
 */
export function frontFetch<B>(lazy: LazyApp<B>, bindings: B): Fetcher["fetch"] {
  const { name, description, usage } = lazy.root;
  // GET / writes no line but the request's own: no request context (shared/contract/log.ts).
  const front = shell(false);
  front.get("/", (c) => c.json({ name, description, usage }, 200));

  const build = () => onFirstUse(async () => (await lazy.load()).createApp(bindings));
  let app = build();
  // Once built, the app is called directly: a hot path's synchronous answer (the shortener's
  // cached redirect) is then not wrapped in promises on every request.
  let built: Fetcher | undefined;
  const routed = async (req: Request) => {
    try {
      built = await app();
    } catch (err) {
      app = build();
      throw err;
    }
    return built.fetch(req);
  };
  // Only a failed import or build lands here (the app answers its own errors): the shell's
  // error handler makes it the contract's 500, with its log line.
  const failed = (req: Request, err: unknown) => {
    const failing = shell(true);
    failing.all("*", () => {
      throw err;
    });
    return failing.fetch(req);
  };

  return (req) => {
    const method = req.method;
    if ((method === "GET" || method === "HEAD") && pathOf(req.url) === "/") return front.fetch(req);
    if (built === undefined) return routed(req).catch((err) => failed(req, err));
    try {
      const res = built.fetch(req);
      return res instanceof Promise ? res.catch((err) => failed(req, err)) : res;
    } catch (err) {
      return failed(req, err);
    }
  };
}

/** The path of a request URL as it came (no query), without parsing the whole URL. */
export function pathOf(url: string): string {
  const host = url.indexOf("://") + 3;
  const start = url.indexOf("/", host);
  const query = url.indexOf("?", host);
  if (start < 0 || (query >= 0 && query < start)) return "/";
  return query < 0 ? url.slice(start) : url.slice(start, query);
}

/**
 * A plain Hono app with the shared middleware and error handlers, as the app shell has;
 * `tracked`: see requestLog.
 */
function shell(tracked: boolean): Hono<{ Variables: SharedVariables }> {
  const app = new Hono<{ Variables: SharedVariables }>();
  app.use(requestLog(undefined, tracked));
  app.use(openCors);
  app.use(jsonCharset);
  app.onError(onError);
  app.notFound(notFound);
  return app;
}
