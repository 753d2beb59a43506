/**
 * A forward proxy that holds every connection a client makes to the address policy of
 * shared/net/address.ts, at the address actually connected. A headless browser context pointed at
 * it (`proxyServer`) cannot reach a private address by any route: subresources, redirects,
 * iframes, fetch/XHR, WebSockets and popups all leave the browser through the proxy, which
 * resolves each host itself, refuses non-public addresses, and connects to exactly the
 * address it checked (so DNS rebinding has no window).
 *
 * Plain `http:` requests arrive as absolute-URI requests and are forwarded; `https:`, `wss:`
 * and `ws:` arrive as CONNECT and are tunnelled byte for byte (TLS stays end to end).
 */
import http from "node:http";
import net from "node:net";
import type { Duplex } from "node:stream";
import { normaliseHost } from "../../net/address.ts";
import type { FetchPolicy } from "../../net/safe_fetch.ts";
import { checkedAddresses, GuardRefusal as ProxyRefusal } from "./address_check.ts";

export { checkedAddresses } from "./address_check.ts";

/** Response header the proxy puts on its own error responses (refusals, upstream failures). */
export const PROXY_ERROR_HEADER = "x-policy-proxy-error";

/** How long the proxy waits for a TCP connection to an upstream address. */
export const UPSTREAM_CONNECT_TIMEOUT_MS = 10_000;

/** A connection the proxy refused or could not make. */
export interface ProxyFailure {
  /** Host as the client named it (no brackets). */
  host: string;
  port: number;
  /** The reason, worded for an API error message. */
  message: string;
  /** True when the address policy refused it (as opposed to DNS or connect failures). */
  refused: boolean;
}

/** A running proxy. */
export interface PolicyProxy {
  /** `http://<host>:<port>`: what a browser context takes as `proxyServer`. */
  readonly url: string;
  /** Every refusal and upstream failure so far, oldest first. */
  readonly failures: readonly ProxyFailure[];
  /** Requests and tunnels that passed the policy and were connected. */
  readonly connected: number;
  /** Bytes received from upstreams so far (response bodies and tunnel traffic). */
  readonly bytesReceived: number;
  /** Stops listening and destroys every open connection, client and upstream. */
  close(): Promise<void>;
}

/** Options of `startPolicyProxy`. */
export interface PolicyProxyOptions {
  /** Interface to listen on (default 127.0.0.1: only this machine can use the proxy). */
  hostname?: string;
  /** Upstream connect timeout (default `UPSTREAM_CONNECT_TIMEOUT_MS`). */
  connectTimeoutMs?: number;
  /**
   * Budget of bytes received from upstreams over the proxy's life: once spent, every
   * upstream connection is cut and new ones are refused (default: no budget).
   */
  maxBytes?: number;
}

/** Hop-by-hop headers (RFC 9110 §7.6.1) plus the proxy ones: never forwarded. */
const HOP_BY_HOP = new Set([
  "connection",
  "proxy-connection",
  "keep-alive",
  "proxy-authorization",
  "proxy-authenticate",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

/** Starts a proxy applying `policy` on a free port. */
export function startPolicyProxy(
  policy: FetchPolicy,
  options: PolicyProxyOptions = {},
): Promise<PolicyProxy> {
  const hostname = options.hostname ?? "127.0.0.1";
  const connectTimeoutMs = options.connectTimeoutMs ?? UPSTREAM_CONNECT_TIMEOUT_MS;
  const failures: ProxyFailure[] = [];
  const sockets = new Set<Duplex>();
  const upstreams = new Set<Duplex>();
  let connected = 0;
  let received = 0;
  const budget = options.maxBytes ?? Infinity;
  const overBudget = `Page exceeded ${budget} bytes`;

  /** Counts upstream bytes; past the budget, cuts every upstream connection. */
  const spend = (bytes: number) => {
    const before = received;
    received += bytes;
    if (before <= budget && received > budget) {
      failures.push({ host: "*", port: 0, message: overBudget, refused: false });
      for (const upstream of upstreams) upstream.destroy();
    }
  };

  const track = <T extends Duplex>(socket: T): T => {
    sockets.add(socket);
    socket.once("close", () => sockets.delete(socket));
    return socket;
  };

  /** Resolves and checks a destination, then connects to the first address that answers. */
  const open = async (host: string, port: number, origins: string[]): Promise<net.Socket> => {
    const addresses = await checkedAddresses(policy, host, origins);
    let last: unknown;
    for (const { address } of addresses) {
      if (received > budget) throw new ProxyRefusal(overBudget, false);
      try {
        const socket = await connectTo(address, port, connectTimeoutMs);
        connected++;
        upstreams.add(socket);
        socket.once("close", () => upstreams.delete(socket));
        return track(socket);
      } catch (err) {
        last = err;
      }
    }
    throw new ProxyRefusal(connectFailure(last, host, port), false);
  };

  const fail = (host: string, port: number, err: unknown): ProxyFailure => {
    const failure = err instanceof ProxyRefusal
      ? { host, port, message: err.message, refused: err.refused }
      : { host, port, message: `Proxy failure for ${host}:${port}`, refused: false };
    failures.push(failure);
    return failure;
  };

  const server = http.createServer((req, res) => {
    let url: URL;
    try {
      url = new URL(req.url ?? "");
      if (url.protocol !== "http:") throw new Error("not http");
    } catch {
      // Origin-form requests are for a server, not a proxy (also stops a loop through itself).
      res.writeHead(400, {
        "content-type": "text/plain",
        [PROXY_ERROR_HEADER]: "Not a proxy request",
      });
      res.end("Not a proxy request");
      return;
    }
    const host = normaliseHost(url.hostname);
    const port = Number(url.port || 80);
    open(host, port, [url.origin]).then(
      (socket) => forward(req, res, url, socket, spend),
      (err) => {
        const failure = fail(host, port, err);
        const status = failure.refused ? 403 : 502;
        res.writeHead(status, {
          "content-type": "text/plain; charset=utf-8",
          [PROXY_ERROR_HEADER]: failure.message,
        });
        res.end(failure.message);
      },
    );
  });
  server.on("connection", track);
  server.on("connect", (req: http.IncomingMessage, client: Duplex, head: Uint8Array) => {
    track(client);
    client.on("error", () => client.destroy());
    let target: URL;
    try {
      target = new URL(`http://${req.url ?? ""}`);
      if (!target.port && !/:\d+$/.test(req.url ?? "")) throw new Error("no port");
    } catch {
      client.end("HTTP/1.1 400 Bad Request\r\nConnection: close\r\n\r\n");
      return;
    }
    const host = normaliseHost(target.hostname);
    const port = Number(target.port || 80);
    const authority = target.host;
    const origins = [new URL(`https://${authority}`).origin, new URL(`http://${authority}`).origin];
    open(host, port, origins).then(
      (upstream) => {
        if (client.destroyed) return upstream.destroy();
        client.write("HTTP/1.1 200 Connection Established\r\n\r\n");
        if (head.length) upstream.write(head);
        upstream.on("data", (chunk: Uint8Array) => spend(chunk.length));
        upstream.pipe(client);
        client.pipe(upstream);
        upstream.on("error", () => client.destroy());
        client.on("close", () => upstream.destroy());
        upstream.on("close", () => client.destroy());
      },
      (err) => {
        const failure = fail(host, port, err);
        const status = failure.refused ? "403 Forbidden" : "502 Bad Gateway";
        client.end(
          `HTTP/1.1 ${status}\r\n${PROXY_ERROR_HEADER}: ${headerSafe(failure.message)}\r\n` +
            "Content-Length: 0\r\nConnection: close\r\n\r\n",
        );
      },
    );
  });
  // A client that vanishes mid-request must not take the process down.
  server.on("clientError", (_err: Error, socket: Duplex) => socket.destroy());

  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, hostname, () => {
      const { port } = server.address() as net.AddressInfo;
      const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
      resolve({
        url: `http://${shown}:${port}`,
        failures,
        get connected() {
          return connected;
        },
        get bytesReceived() {
          return received;
        },
        close: () =>
          new Promise<void>((done) => {
            server.close(() => done());
            for (const socket of sockets) socket.destroy();
            sockets.clear();
          }),
      });
    });
  });
}

/** A TCP connection to one literal address, or the error that stopped it. */
function connectTo(address: string, port: number, timeoutMs: number): Promise<net.Socket> {
  return new Promise((resolve, reject) => {
    const socket = net.connect({ host: address, port });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(Object.assign(new Error("connect timeout"), { code: "ETIMEDOUT" }));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      socket.removeAllListeners("error");
      resolve(socket);
    });
    socket.once("error", (err) => {
      clearTimeout(timer);
      socket.destroy();
      reject(err);
    });
  });
}

/** Forwards one absolute-URI request over an already checked upstream connection. */
function forward(
  req: http.IncomingMessage,
  res: http.ServerResponse,
  url: URL,
  socket: net.Socket,
  spend: (bytes: number) => void,
): void {
  const upstream = http.request({
    method: req.method,
    path: url.pathname + url.search,
    headers: forwardHeaders(req.rawHeaders),
    setHost: false,
    // The connection is the one whose address passed the policy: no second lookup.
    createConnection: () => socket,
  } as http.RequestOptions);
  upstream.on("response", (up) => {
    res.writeHead(up.statusCode ?? 502, up.statusMessage, forwardHeaders(up.rawHeaders));
    up.on("data", (chunk: Uint8Array) => spend(chunk.length));
    up.pipe(res);
    up.on("error", () => res.destroy());
    // Cut short (budget spent, peer gone): the client must see a broken response, not a hang.
    up.on("close", () => !up.complete && res.destroy());
  });
  upstream.on("error", () => {
    if (!res.headersSent) {
      res.writeHead(502, {
        "content-type": "text/plain",
        [PROXY_ERROR_HEADER]: `Upstream failure at ${url.host}`,
      });
      res.end("Bad gateway");
    } else {
      res.destroy();
    }
    socket.destroy();
  });
  res.on("close", () => {
    upstream.destroy();
    socket.destroy();
  });
  req.pipe(upstream);
}

/** Raw header pairs minus hop-by-hop ones (and those the Connection header names). */
function forwardHeaders(raw: string[]): Record<string, string | string[]> {
  const named = new Set<string>();
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (name === "connection" || name === "proxy-connection") {
      for (const token of raw[i + 1].split(",")) named.add(token.trim().toLowerCase());
    }
  }
  const out: Record<string, string | string[]> = {};
  for (let i = 0; i + 1 < raw.length; i += 2) {
    const name = raw[i].toLowerCase();
    if (HOP_BY_HOP.has(name) || named.has(name)) continue;
    const prev = out[name];
    out[name] = prev === undefined ? raw[i + 1] : [...[prev].flat(), raw[i + 1]];
  }
  return out;
}

function connectFailure(err: unknown, host: string, port: number): string {
  switch ((err as { code?: string })?.code) {
    case "ECONNREFUSED":
      return `Connection refused by ${host}:${port}`;
    case "ETIMEDOUT":
      return `Timed out connecting to ${host}:${port}`;
    case "ECONNRESET":
      return `Connection reset by ${host}:${port}`;
    default:
      return `Could not connect to ${host}:${port}`;
  }
}

/** Header values may not carry line breaks (a host name never should, but be sure). */
function headerSafe(value: string): string {
  return value.replace(/[\r\n]+/g, " ");
}
