/** The redirect-loop guard: a target on the shortener's own host is refused. */

const LOOPBACK = /^(localhost|127(?:\.\d{1,3}){3}|\[::1\]|\[::ffff:127(?:\.\d{1,3}){3}\])$/;

/** `host[:port]` of a URL, lower case, without a trailing dot on the name. */
function hostKey(url: URL): { name: string; port: string } {
  const name = url.hostname.toLowerCase().replace(/\.$/, "");
  return { name: LOOPBACK.test(name) ? "loopback" : name, port: url.port };
}

/**
 * True when `target` points at one of `selfOrigins` (the request's origin, the public base
 * URL): same host name and port, whatever the scheme, and every loopback name counts as one
 * (`localhost:8007` and `127.0.0.1:8007` are the same server).
 */
export function pointsAtSelf(target: string, selfOrigins: readonly string[]): boolean {
  const t = hostKey(new URL(target));
  return selfOrigins.some((origin) => {
    const s = hostKey(new URL(origin));
    return s.name === t.name && s.port === t.port;
  });
}
