/**
 * The origin a request was sent to, from its `Host` header: the runtime builds `req.url` from
 * that header as sent, so `Host: a b` makes a URL that does not parse and `Host: a?b` or `@x`
 * one on another host. A header that is not a host name or address with an optional port is
 * the caller's error.
 */
import { ApiError } from "./errors.ts";

/** The message of a malformed `Host` header. */
export const INVALID_HOST_MESSAGE = "Invalid Host header";

/** A DNS name (labels of letters, digits, `-`, `_`), an IPv4 address, or an IPv6 one in `[]`. */
const HOST =
  /^(?:[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?(?:\.[a-z0-9_](?:[a-z0-9_-]{0,61}[a-z0-9_])?)*\.?|\[[0-9a-f:.]+\])(?::(\d{1,5}))?$/i;

/** Whether `host` is a `Host` header value this service accepts. */
export function isValidHost(host: string): boolean {
  const m = HOST.exec(host);
  if (!m || host.length > 253 + 6) return false;
  if (m[1] !== undefined && (Number(m[1]) < 1 || Number(m[1]) > 65535)) return false;
  try {
    // Only an address URL parsing accepts (`[::1]`, not `[1::2::3]`).
    return new URL(`http://${host}`).host !== "";
  } catch {
    return false;
  }
}

/**
 * `scheme://host[:port]` of `req`: the `Host` header when there is one (an HTTP/1.1 request),
 * else the request URL's (in-process calls). Throws 400 `INVALID_INPUT` for a malformed one.
 */
export function requestOrigin(req: Request): string {
  const host = req.headers.get("host");
  const scheme = req.url.slice(0, Math.max(0, req.url.indexOf("://")));
  if (host !== null && host !== "") {
    if (!isValidHost(host) || !/^https?$/.test(scheme)) {
      throw new ApiError("INVALID_INPUT", INVALID_HOST_MESSAGE);
    }
    return new URL(`${scheme}://${host}`).origin;
  }
  try {
    return new URL(req.url).origin;
  } catch {
    throw new ApiError("INVALID_INPUT", INVALID_HOST_MESSAGE);
  }
}
