/**
 * The address policy of every outbound connection: which hosts and IP addresses are public.
 * Pure functions, no I/O: safe_fetch.ts and the screenshot proxy apply them at connect time.
 */
import ipaddr from "ipaddr.js";

/** Names that reach the machine itself or a cloud metadata service. */
const FORBIDDEN_NAMES = new Set([
  "localhost",
  "metadata",
  "metadata.google.internal",
  "metadata.goog",
  "instance-data",
  "instance-data.ec2.internal",
]);

/** Suffixes of names that are never public (RFC 6761 / 6762 and cloud-internal zones). */
const FORBIDDEN_SUFFIXES = [".localhost", ".local", ".internal", ".home.arpa"];

/** Strips the brackets of an IPv6 URL host and a trailing root dot, and lowercases. */
export function normaliseHost(host: string): string {
  let h = host.toLowerCase();
  if (h.startsWith("[") && h.endsWith("]")) h = h.slice(1, -1);
  return h.endsWith(".") ? h.slice(0, -1) : h;
}

/**
 * True when an IP address is a public unicast one. Loopback, private (RFC 1918), link-local,
 * CGNAT, 0.0.0.0/8, multicast, broadcast, reserved, documentation, IPv6 ULA / link-local /
 * loopback / unspecified, and IPv4 embedded in IPv6 (mapped, NAT64, 6to4, Teredo) that is not
 * itself public are all refused, and so is all of ::/96 (the deprecated IPv4-compatible form,
 * `[::127.0.0.1]`, which ipaddr.js calls unicast). Anything that does not parse is refused.
 */
export function isPublicAddress(address: string): boolean {
  const host = normaliseHost(address);
  if (!ipaddr.isValid(host)) return false;
  let addr = ipaddr.parse(host);
  if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).isIPv4MappedAddress()) {
    addr = (addr as ipaddr.IPv6).toIPv4Address();
  } else if (addr.kind() === "ipv6" && (addr as ipaddr.IPv6).parts.slice(0, 6).every((p) => !p)) {
    return false; // ::/96: IPv4-compatible, deprecated since RFC 4291, never a public host
  }
  return addr.range() === "unicast";
}

/**
 * What an IP literal can look like: IPv6 has a colon, ipaddr.js's IPv4 forms (dotted, octal,
 * hex, one number) only digits, hex letters, `x` and dots. Anything else is a name, told
 * without ipaddr.js, whose refusal throws (~0.2 ms each: a page's 150,000 script hosts took 30 s).
 */
const MAYBE_IP = /:|^[\da-fx.]+$/i;

/** True when a host (name or literal address, as in `URL.hostname`) is an IP literal. */
export function isIpLiteral(host: string): boolean {
  const h = normaliseHost(host);
  return MAYBE_IP.test(h) && ipaddr.isValid(h);
}

/**
 * True when a URL host may be contacted at all, judged from the text alone: literal
 * addresses must be public, names must not be local or metadata names. A public-looking
 * name still has its resolved addresses checked at connect time.
 */
export function isPublicHost(host: string): boolean {
  const h = normaliseHost(host);
  if (isIpLiteral(h)) return isPublicAddress(h);
  if (!h.includes(".")) return false; // single-label names resolve through local search domains
  if (FORBIDDEN_NAMES.has(h)) return false;
  return !FORBIDDEN_SUFFIXES.some((suffix) => h.endsWith(suffix));
}
