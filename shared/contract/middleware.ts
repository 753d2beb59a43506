/** The middleware every experiment runs: request id + one JSON log line, JSON charset, CORS. */
import type { Context, MiddlewareHandler } from "hono";

/** Sets a response header, copying the response first when its headers are immutable. */
export function setHeader(c: Context, name: string, value: string): void {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.res = new Response(c.res.body, c.res);
    c.res.headers.set(name, value);
  }
}

/** Variables the shared middleware and error handlers put on the context. */
export type SharedVariables = { requestId: string; errorCode?: string };

const INCOMING_ID = /^[\w.:-]{1,128}$/;

/**
 * Gives every response an `X-Request-Id` (the caller's, when it sent a sane one) and writes
 * one JSON line to stderr per request: method, path, status, duration, error code.
 */
export function requestLog(log: (line: string) => void = console.error): MiddlewareHandler {
  return async (c, next) => {
    const started = performance.now();
    const incoming = c.req.header("x-request-id");
    const id = incoming && INCOMING_ID.test(incoming) ? incoming : crypto.randomUUID();
    c.set("requestId", id);
    await next();
    setHeader(c, "X-Request-Id", id);
    log(JSON.stringify({
      time: new Date().toISOString(),
      requestId: id,
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 100) / 100,
      code: c.get("errorCode") ?? null,
    }));
  };
}

/** JSON responses say their charset, as the conventions require. */
export const jsonCharset: MiddlewareHandler = async (c, next) => {
  await next();
  if (c.res.headers.get("content-type") === "application/json") {
    setHeader(c, "content-type", "application/json; charset=utf-8");
  }
};

/**
 * CORS: every response may be read from any origin (the APIs need no credentials), and
 * preflights are answered, so browsers can call POST/PUT routes too.
 */
export const openCors: MiddlewareHandler = async (c, next) => {
  if (c.req.method === "OPTIONS" && c.req.header("access-control-request-method")) {
    return new Response(null, {
      status: 204,
      headers: {
        "access-control-allow-origin": "*",
        "access-control-allow-methods": "GET, HEAD, POST, PUT, DELETE, OPTIONS",
        "access-control-allow-headers": c.req.header("access-control-request-headers") ?? "*",
        "access-control-max-age": "86400",
      },
    });
  }
  await next();
  setHeader(c, "access-control-allow-origin", "*");
  setHeader(c, "access-control-expose-headers", "X-Request-Id, X-AI-Model, ETag");
};
