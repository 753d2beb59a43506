/**
 * The one outbound fetch for pages that strangers name. Every connection is checked at the
 * address actually connected (the `lookup` hook of node:http sees the addresses the socket is
 * about to use, so DNS rebinding has no window), redirects are followed by hand and checked
 * again, and time, bytes and decompression are bounded.
 */
import type http from "node:http";
import type { Duplex } from "node:stream";
import { ApiError, type ErrorCode } from "../contract/errors.ts";
import { isIpLiteral, isPublicAddress, isPublicHost, normaliseHost } from "./address.ts";
import { onFirstUse } from "../contract/lazy.ts";
import { parseUrlInput } from "../contract/url_rule.ts";

/** One resolved address, as `dns.lookup(..., {all: true})` returns it. */
export interface ResolvedAddress {
  address: string;
  family: 4 | 6;
}

/** Resolves a host name to the addresses a connection would use. */
export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

/**
 * Where outbound fetches may go and how much they may take (its defaults, and reading it from the
 * environment: fetch_policy.ts).
 */
export interface FetchPolicy {
  /** `ALLOW_PRIVATE_NETWORKS=true`: no address check at all (dev and tests only). */
  allowPrivate: boolean;
  /** Total time for the whole fetch, redirects included. */
  timeoutMs: number;
  /** Cap on the (decompressed) body. */
  maxBytes: number;
  /** `DEV_MODE=true` (set by `deno task dev`): refusals hint at `ALLOW_PRIVATE_NETWORKS`. */
  devMode?: boolean;
  /** Test hook: origins (`http://127.0.0.1:4100`) reachable although their address is not public. */
  allowOrigins?: ReadonlySet<string>;
  /** Test hook: a resolver that replaces DNS (so a test can name a host that resolves to loopback). */
  resolve?: Resolver;
  /**
   * Test hook: the port to connect to per origin (`https://site.test` → 41234), so a test can
   * serve a name's default ports (80, 443) from ephemeral loopback ports.
   */
  ports?: ReadonlyMap<string, number>;
  /** Test hook: the certificate authorities (PEM) HTTPS trusts instead of the system's. */
  ca?: string;
}

/** How many redirects are followed before the fetch fails. */
export const MAX_REDIRECTS = 5;

/** What the service says it is when it fetches. */
export const USER_AGENT = "EdgeUtilityServices/1.0 (+https://github.com/edge-utility-services)";

/** One hop of a redirect chain. */
export interface RedirectHop {
  url: string;
  status: number;
  /** The Location, resolved against `url`. */
  location: string;
  /** The hop's response headers (a redirect's HSTS or Set-Cookie, for callers that audit). */
  headers: Headers;
}

/** Milliseconds spent in each phase of the final request (null where not measurable). */
export interface FetchTimings {
  dns: number | null;
  connect: number | null;
  tls: number | null;
  ttfb: number;
  download: number;
  total: number;
}

/** What a successful fetch returns. */
export interface FetchResult {
  /** The URL as requested (normalised). */
  url: string;
  /** The URL of the last hop. */
  finalUrl: string;
  status: number;
  statusText: string;
  headers: Headers;
  /** Raw `Set-Cookie` lines of the final response (Headers folds them). */
  setCookies: string[];
  httpVersion: string;
  redirects: RedirectHop[];
  timings: FetchTimings;
  /** The address the final request connected to. */
  remoteAddress: string | null;
  /** `Content-Type` without parameters, lowercased; null when absent. */
  contentType: string | null;
  /** The charset the text was decoded with. */
  charset: string;
  /** Bytes received on the wire (before decompression). */
  encodedBytes: number;
  /** The decompressed body. */
  body: Uint8Array;
  /** The body decoded as text with `charset`. */
  text: string;
}

/** Options of one fetch. */
export interface SafeFetchOptions {
  /** GET by default; OPTIONS sends a CORS preflight (with the caller's Origin header). */
  method?: "GET" | "HEAD" | "OPTIONS";
  headers?: Record<string, string>;
  /** The code of every failure after validation (502); `/summary` uses FETCH_OR_AI_ERROR. */
  errorCode?: ErrorCode;
  signal?: AbortSignal;
  /**
   * `false`: the final response's body is not read (the connection is closed after the
   * headers) and `body` and `text` are empty, for probes that only need status and headers.
   */
  readBody?: boolean;
}

/** A fetch failure, carried as the experiment's 502 code. */
function failure(code: ErrorCode, message: string): ApiError {
  return new ApiError(code, message);
}

/** A refusal whose message is already the one to report (blocked address, oversize body). */
class FetchRefused extends Error {}

function isAllowedOrigin(url: URL, policy: FetchPolicy): boolean {
  return policy.allowOrigins?.has(url.origin) ?? false;
}

const loadDns = onFirstUse(() => import("node:dns/promises"));

const systemResolver: Resolver = async (hostname) => {
  const { lookup } = await loadDns();
  return (await lookup(hostname, { all: true, verbatim: true })) as ResolvedAddress[];
};

/**
 * The address a connection to `url`'s host may use, under the same rule as the fetch: a literal
 * address or every address a name resolves to must be public, unless the policy allows private
 * networks or the origin. Connect to the address returned (never to the name again), so DNS
 * cannot answer differently between the check and the connection. Fails with the reason.
 */
export async function checkedAddress(url: URL, policy: FetchPolicy): Promise<ResolvedAddress> {
  const host = normaliseHost(url.hostname);
  const check = !policy.allowPrivate && !isAllowedOrigin(url, policy);
  if (isIpLiteral(host)) {
    if (check && !isPublicAddress(host)) throw new Error(PRIVATE_HOST_MESSAGE);
    return { address: host, family: host.includes(":") ? 6 : 4 };
  }
  const addresses = await (policy.resolve ?? systemResolver)(url.hostname);
  if (addresses.length === 0) throw new Error(`DNS lookup failed for ${url.hostname}`);
  if (check && addresses.some((a) => !isPublicAddress(a.address))) {
    throw new Error(
      `Refused to connect to ${url.hostname}: it resolves to a private or reserved address`,
    );
  }
  return addresses[0];
}

/** The Node modules a fetch runs on. */
interface NodeNet {
  http: typeof import("node:http");
  https: typeof import("node:https");
  zlib: typeof import("node:zlib");
}

/**
 * node:http, node:https and node:zlib, loaded by the first fetch rather than at start-up:
 * Deno's Node compatibility modules cost every experiment cold-start time
 * (bench/cold_start.ts), and `GET /` never fetches.
 */
const loadNodeNet = onFirstUse((): Promise<NodeNet> =>
  Promise.all([import("node:http"), import("node:https"), import("node:zlib")])
    .then(([http, https, zlib]) => ({ http, https, zlib }))
);

/**
 * Fetches `input` under `policy`. The URL input rule and the literal-host check run first
 * (400 INVALID_URL, nothing contacted); every later failure is a 502 with `errorCode`.
 */
export async function safeFetch(
  input: unknown,
  policy: FetchPolicy,
  options: SafeFetchOptions = {},
): Promise<FetchResult> {
  const requested = parseUrlInput(input);
  if (!requested) throw new ApiError("INVALID_URL", "Missing or invalid url");
  const first = new URL(requested);
  if (!policy.allowPrivate && !isAllowedOrigin(first, policy) && !isPublicHost(first.hostname)) {
    throw privateHostError(policy);
  }
  const code = options.errorCode ?? "FETCH_ERROR";
  const deadline = AbortSignal.timeout(policy.timeoutMs);
  const signal = options.signal ? AbortSignal.any([deadline, options.signal]) : deadline;
  const started = performance.now();
  const redirects: RedirectHop[] = [];
  let url = first;
  const method = options.method ?? "GET"; // GET, HEAD and OPTIONS keep their method across redirects
  try {
    const net = await loadNodeNet();
    for (;;) {
      if (!policy.allowPrivate && !isAllowedOrigin(url, policy) && !isPublicHost(url.hostname)) {
        throw failure(code, `Refused to connect to ${url.hostname}: private or reserved address`);
      }
      const hop = await requestOnce(
        net,
        url,
        method,
        policy,
        options.headers ?? {},
        options.readBody ?? true,
        signal,
        started,
      );
      const location = hop.headers.get("location");
      if (hop.status >= 300 && hop.status < 400 && location) {
        if (redirects.length >= MAX_REDIRECTS) {
          throw failure(code, `Too many redirects (more than ${MAX_REDIRECTS})`);
        }
        let next: URL;
        try {
          next = new URL(location, url);
        } catch {
          throw failure(code, `Invalid redirect location: ${location.slice(0, 200)}`);
        }
        if (next.protocol !== "http:" && next.protocol !== "https:") {
          throw failure(code, `Redirect to unsupported scheme ${next.protocol}`);
        }
        redirects.push({
          url: url.href,
          status: hop.status,
          location: next.href,
          headers: hop.headers,
        });
        url = next;
        continue;
      }
      const charset = detectCharset(hop.headers.get("content-type"), hop.body);
      return {
        url: requested,
        finalUrl: url.href,
        status: hop.status,
        statusText: hop.statusText,
        headers: hop.headers,
        setCookies: hop.setCookies,
        httpVersion: hop.httpVersion,
        redirects,
        timings: hop.timings,
        remoteAddress: hop.remoteAddress,
        contentType: hop.headers.get("content-type")?.split(";")[0].trim().toLowerCase() || null,
        charset,
        encodedBytes: hop.encodedBytes,
        body: hop.body,
        text: decode(hop.body, charset),
      };
    }
  } catch (err) {
    if (err instanceof ApiError) throw err;
    throw failure(code, describe(err, url, policy, signal));
  }
}

/** Turns a low-level failure into the message a caller can act on. */
function describe(err: unknown, url: URL, policy: FetchPolicy, signal: AbortSignal): string {
  if (err instanceof FetchRefused) return err.message;
  if (signal.aborted) {
    return signal.reason instanceof DOMException && signal.reason.name === "TimeoutError"
      ? `Timed out after ${policy.timeoutMs} ms fetching ${url.host}`
      : "Fetch aborted";
  }
  const e = err as NodeJS.ErrnoException;
  switch (e?.code) {
    case "ENOTFOUND":
    case "EAI_AGAIN":
    case "EAI_NONAME":
      return `DNS lookup failed for ${url.hostname}`;
    case "ECONNREFUSED":
      return `Connection refused by ${url.host}`;
    case "ECONNRESET":
      return `Connection reset by ${url.host}`;
    case "EHOSTUNREACH":
    case "ENETUNREACH":
      return `Host unreachable: ${url.host}`;
  }
  const message = e instanceof Error ? e.message : String(e);
  return `Fetch failed for ${url.host}: ${message}`.slice(0, 300);
}

interface RawResponse {
  status: number;
  statusText: string;
  headers: Headers;
  setCookies: string[];
  httpVersion: string;
  remoteAddress: string | null;
  timings: FetchTimings;
  encodedBytes: number;
  body: Uint8Array;
}

/** One request on a fresh connection whose addresses pass the policy. */
function requestOnce(
  net: NodeNet,
  url: URL,
  method: "GET" | "HEAD" | "OPTIONS",
  policy: FetchPolicy,
  extraHeaders: Record<string, string>,
  wantBody: boolean,
  signal: AbortSignal,
  fetchStarted: number,
): Promise<RawResponse> {
  const resolver = policy.resolve ?? systemResolver;
  const checkAddresses = !policy.allowPrivate && !isAllowedOrigin(url, policy);
  const host = normaliseHost(url.hostname);
  const t = {
    start: performance.now(),
    dns: null as number | null,
    connect: null as number | null,
  };
  let tls: number | null = null;

  // node:http calls this with {all: true} for names (never for IP literals, checked above):
  // the addresses it hands back are exactly the ones the socket connects to.
  const lookup = (
    hostname: string,
    opts: { all?: boolean },
    cb: (err: Error | null, address: string | ResolvedAddress[], family?: number) => void,
  ) => {
    resolver(hostname).then((addresses) => {
      t.dns = performance.now() - t.start;
      if (addresses.length === 0) {
        throw Object.assign(new Error("no address"), { code: "ENOTFOUND" });
      }
      const refused = checkAddresses && addresses.find((a) => !isPublicAddress(a.address));
      if (refused) {
        throw new FetchRefused(
          `Refused to connect to ${hostname}: it resolves to a private or reserved address`,
        );
      }
      if (opts?.all) cb(null, addresses);
      else cb(null, addresses[0].address, addresses[0].family);
    }).catch((err) => cb(err, []));
  };

  const transport = url.protocol === "https:" ? net.https : net.http;
  return new Promise<RawResponse>((resolve, reject) => {
    const req = transport.request(
      {
        protocol: url.protocol,
        host: isIpLiteral(host) ? host : url.hostname,
        port: policy.ports?.get(url.origin) ?? (url.port || undefined),
        path: url.pathname + url.search,
        method,
        agent: false,
        lookup: lookup as never,
        signal,
        ...(policy.ca ? { ca: policy.ca } : {}),
        headers: {
          "user-agent": USER_AGENT,
          "accept": "text/html,application/xhtml+xml,application/json;q=0.9,*/*;q=0.8",
          "accept-encoding": "gzip, deflate, br",
          ...extraHeaders,
        },
      },
      (res) => {
        const ttfb = performance.now() - t.start;
        const headers = new Headers();
        const raw = res.rawHeaders;
        for (let i = 0; i + 1 < raw.length; i += 2) {
          if (raw[i].toLowerCase() !== "set-cookie") headers.append(raw[i], raw[i + 1]);
        }
        const setCookies = ([] as string[]).concat(res.headers["set-cookie"] ?? []);
        for (const cookie of setCookies) headers.append("set-cookie", cookie);
        const status = res.statusCode ?? 0;
        const base = {
          status,
          statusText: res.statusMessage ?? "",
          headers,
          setCookies,
          httpVersion: res.httpVersion,
          remoteAddress: res.socket?.remoteAddress ?? null,
        };
        const isRedirect = status >= 300 && status < 400 && headers.has("location");
        if (isRedirect || method === "HEAD" || !wantBody) {
          if (wantBody || isRedirect) res.resume();
          else res.destroy(); // a body nobody reads is not downloaded
          const end = performance.now();
          resolve({
            ...base,
            timings: timings(t, tls, ttfb, end, fetchStarted),
            encodedBytes: 0,
            body: new Uint8Array(),
          });
          return;
        }
        readBody(net, res, headers.get("content-encoding"), policy.maxBytes).then(
          ({ body, encodedBytes }) => {
            resolve({
              ...base,
              timings: timings(t, tls, ttfb, performance.now(), fetchStarted),
              encodedBytes,
              body,
            });
          },
          (err) => {
            res.destroy();
            reject(err);
          },
        );
      },
    );
    req.on("socket", (socket: Duplex) => {
      socket.once("connect", () => (t.connect = performance.now() - t.start));
      socket.once("secureConnect", () => (tls = performance.now() - t.start));
    });
    req.on("error", reject);
    req.end();
  });
}

function timings(
  t: { start: number; dns: number | null; connect: number | null },
  tls: number | null,
  ttfb: number,
  end: number,
  fetchStarted: number,
): FetchTimings {
  const round = (n: number | null) => (n === null ? null : Math.round(n * 100) / 100);
  return {
    dns: round(t.dns),
    connect: round(t.connect),
    tls: round(tls),
    ttfb: round(ttfb)!,
    download: round(end - t.start - ttfb)!,
    total: round(end - fetchStarted)!,
  };
}

/** First buffer for a body of unknown length (doubled as it fills). */
const INITIAL_BODY_BYTES = 64 * 1024;

/**
 * Streams the body through its decoder, failing as soon as the cap is passed. Chunks are
 * copied into one buffer as they arrive (sized by `Content-Length` when the body is not
 * encoded, else grown as needed), so a page is held once, not once in chunks and again joined.
 */
async function readBody(
  net: NodeNet,
  res: http.IncomingMessage,
  encoding: string | null,
  maxBytes: number,
): Promise<{ body: Uint8Array; encodedBytes: number }> {
  let encodedBytes = 0;
  res.on("data", (chunk: Uint8Array) => (encodedBytes += chunk.length));
  const decoder = decompressor(net, encoding);
  const stream = decoder ? res.pipe(decoder) : res;
  if (decoder) res.on("error", (err) => decoder.destroy(err));
  const declared = decoder ? NaN : Number(res.headers["content-length"]);
  let buffer = new ArrayBuffer(
    Math.min(maxBytes, Number.isSafeInteger(declared) ? declared : INITIAL_BODY_BYTES),
  );
  let size = 0;
  for await (const chunk of stream as AsyncIterable<Uint8Array>) {
    if (size + chunk.length > maxBytes) {
      decoder?.destroy();
      throw new FetchRefused(`Response body exceeds ${maxBytes} bytes`);
    }
    if (size + chunk.length > buffer.byteLength) {
      buffer = buffer.transfer(Math.min(maxBytes, Math.max(2 * size, size + chunk.length)));
    }
    new Uint8Array(buffer, size).set(chunk);
    size += chunk.length;
  }
  return { body: new Uint8Array(buffer, 0, size), encodedBytes };
}

function decompressor({ zlib }: NodeNet, encoding: string | null) {
  switch (encoding?.trim().toLowerCase()) {
    case "gzip":
    case "x-gzip":
      return zlib.createGunzip();
    case "deflate":
      return zlib.createInflate();
    case "br":
      return zlib.createBrotliDecompress();
    default:
      return null;
  }
}

/** Charset from the header, else a BOM, else `<meta charset>` in the first 1024 bytes, else UTF-8. */
export function detectCharset(contentType: string | null, body: Uint8Array): string {
  const fromHeader = contentType?.match(/charset\s*=\s*["']?([\w.:-]+)/i)?.[1];
  if (fromHeader && isKnownCharset(fromHeader)) return fromHeader.toLowerCase();
  if (body[0] === 0xef && body[1] === 0xbb && body[2] === 0xbf) return "utf-8";
  if (body[0] === 0xfe && body[1] === 0xff) return "utf-16be";
  if (body[0] === 0xff && body[1] === 0xfe) return "utf-16le";
  const head = new TextDecoder("latin1").decode(body.subarray(0, 1024));
  const fromMeta = head.match(/<meta[^>]+charset\s*=\s*["']?([\w.:-]+)/i)?.[1];
  if (fromMeta && isKnownCharset(fromMeta)) return fromMeta.toLowerCase();
  return "utf-8";
}

function isKnownCharset(label: string): boolean {
  try {
    new TextDecoder(label);
    return true;
  } catch {
    return false;
  }
}

function decode(body: Uint8Array, charset: string): string {
  return new TextDecoder(charset).decode(body);
}

/** The message of a refused literal private host; DEV_MODE_HINT is added in dev only. */
export const PRIVATE_HOST_MESSAGE = "URL host is a private or reserved address";
/** What a developer trying local pages needs to know (never said by a deployed service). */
export const DEV_MODE_HINT =
  "dev: ALLOW_PRIVATE_NETWORKS=true deno task dev lets the local services fetch it";

/** 400 INVALID_URL for a URL whose host is private or reserved (with the hint in dev). */
export function privateHostError(policy: Pick<FetchPolicy, "devMode">): ApiError {
  const hint = policy.devMode ? ` (${DEV_MODE_HINT})` : "";
  return new ApiError("INVALID_URL", `${PRIVATE_HOST_MESSAGE}${hint}`);
}
