/**
 * The loopback fixture server every test reuses: serves `tests/fixtures/`, counts hits per
 * path, and can redirect, stall, send huge, gzip/br/deflate or custom-header responses.
 *
 * Any response takes these query options: `status=N`, `type=<content-type>`,
 * `header=Name:Value` (repeatable), `encoding=gzip|br|deflate`.
 * Built-in paths: `/redirect?to=<url>&status=302`, `/stall?ms=N` (no headers for N ms),
 * `/slow-body?ms=N` (headers at once, body after N ms), `/huge?bytes=N` (a streamed HTML body).
 */
import { brotliCompressSync, deflateSync, gzipSync } from "node:zlib";

/** A handler for a path of one test's own. */
export type FixtureRoute = (req: Request, url: URL) => Response | Promise<Response>;

/** A running fixture server. */
export interface FixtureServer {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  port: number;
  /** Absolute URL of a path on this server. */
  url(path: string): string;
  /** Requests received for a path (or in all, without one). */
  hits(path?: string): number;
  close(): Promise<void>;
}

const FIXTURES = new URL("../fixtures/", import.meta.url);

const TYPES: Record<string, string> = {
  html: "text/html; charset=utf-8",
  json: "application/json",
  css: "text/css",
  js: "text/javascript",
  png: "image/png",
  txt: "text/plain; charset=utf-8",
  xml: "application/xml",
};

/** Starts a fixture server on 127.0.0.1 at a free port. */
export function startFixtureServer(routes: Record<string, FixtureRoute> = {}): FixtureServer {
  const hits = new Map<string, number>();
  const controller = new AbortController();
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: controller.signal, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      hits.set(url.pathname, (hits.get(url.pathname) ?? 0) + 1);
      const res = await route(req, url, routes);
      return applyOptions(res, url);
    },
  );
  const port = server.addr.port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    url: (path) => new URL(path, origin).href,
    hits: (path) =>
      path === undefined ? [...hits.values()].reduce((a, b) => a + b, 0) : hits.get(path) ?? 0,
    async close() {
      controller.abort();
      await server.finished;
    },
  };
}

async function route(req: Request, url: URL, routes: Record<string, FixtureRoute>) {
  const own = routes[url.pathname];
  if (own) return await own(req, url);
  const q = url.searchParams;
  switch (url.pathname) {
    case "/redirect":
      return new Response(null, {
        status: Number(q.get("status") ?? 302),
        headers: { location: q.get("to") ?? "/" },
      });
    case "/stall":
      await sleep(Number(q.get("ms") ?? 30_000), req.signal);
      return new Response("late", { headers: { "content-type": "text/plain" } });
    case "/slow-body": {
      const ms = Number(q.get("ms") ?? 30_000);
      let timer: ReturnType<typeof setTimeout> | undefined;
      const body = new ReadableStream<Uint8Array>({
        start(ctrl) {
          ctrl.enqueue(new TextEncoder().encode("<html><body>"));
          timer = setTimeout(() => {
            ctrl.enqueue(new TextEncoder().encode("done</body></html>"));
            ctrl.close();
          }, ms);
        },
        cancel: () => clearTimeout(timer), // the client went away
      });
      return new Response(body, { headers: { "content-type": "text/html" } });
    }
    case "/huge":
      return new Response(repeated(Number(q.get("bytes") ?? 10_000_000)), {
        headers: { "content-type": "text/html" },
      });
  }
  return await serveFile(url.pathname);
}

async function serveFile(pathname: string): Promise<Response> {
  const rel = decodeURIComponent(pathname).replace(/^\/+/, "");
  if (rel.split("/").includes("..")) return new Response("bad path", { status: 400 });
  try {
    const body = await Deno.readFile(new URL(rel, FIXTURES));
    const ext = rel.split(".").pop() ?? "";
    return new Response(body, {
      headers: { "content-type": TYPES[ext] ?? "application/octet-stream" },
    });
  } catch {
    return new Response("not found", { status: 404, headers: { "content-type": "text/plain" } });
  }
}

/** Applies the `status`, `type`, `header` and `encoding` query options to a response. */
async function applyOptions(res: Response, url: URL): Promise<Response> {
  const q = url.searchParams;
  if (!["status", "type", "header", "encoding"].some((k) => q.has(k))) return res;
  const headers = new Headers(res.headers);
  if (q.has("type")) headers.set("content-type", q.get("type")!);
  for (const h of q.getAll("header")) {
    const i = h.indexOf(":");
    if (i > 0) headers.append(h.slice(0, i).trim(), h.slice(i + 1).trim());
  }
  let body: BodyInit | null = res.body;
  const encoding = q.get("encoding");
  if (encoding) {
    const raw = new Uint8Array(await res.arrayBuffer());
    const encode = { gzip: gzipSync, br: brotliCompressSync, deflate: deflateSync }[encoding];
    if (!encode) throw new Error(`unknown encoding ${encoding}`);
    body = new Uint8Array(encode(raw));
    headers.set("content-encoding", encoding);
    headers.delete("content-length");
  }
  return new Response(body, { status: Number(q.get("status") ?? res.status), headers });
}

function repeated(bytes: number): ReadableStream<Uint8Array> {
  const chunk = new TextEncoder().encode("<p>" + "a".repeat(16_377) + "</p>\n");
  let sent = 0;
  return new ReadableStream({
    pull(ctrl) {
      if (sent >= bytes) return ctrl.close();
      const part = chunk.subarray(0, Math.min(chunk.length, bytes - sent));
      sent += part.length;
      ctrl.enqueue(part);
    },
  });
}

/** Waits `ms`, or less when the request is aborted. */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener("abort", () => {
      clearTimeout(timer);
      resolve();
    }, { once: true });
  });
}
