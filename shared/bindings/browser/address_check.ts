/**
 * The address check both browser guards apply to a destination before the browser may
 * connect to it: the policy proxy (which then connects to exactly the checked address) and
 * the in-band CDP guard (which lets the browser connect, and so resolve, by itself).
 */
import { isIpLiteral, isPublicAddress, isPublicHost, normaliseHost } from "../../net/address.ts";
import type { FetchPolicy, ResolvedAddress, Resolver } from "../../net/safe_fetch.ts";

/** A destination refused by the policy or one that could not be resolved or connected. */
export class GuardRefusal extends Error {
  constructor(message: string, readonly refused: boolean) {
    super(message);
    this.name = "GuardRefusal";
  }
}

/** `dns.lookup(all)`, loaded on first use (the edge has no node:dns until a capture needs it). */
const systemResolver: Resolver = async (hostname) => {
  const { lookup } = await import("node:dns/promises");
  return (await lookup(hostname, { all: true, verbatim: true })) as ResolvedAddress[];
};

/** True when the policy lets `origins` through without an address check. */
export function isOpen(policy: FetchPolicy, origins: readonly string[]): boolean {
  return Boolean(policy.allowPrivate || origins.some((o) => policy.allowOrigins?.has(o)));
}

/**
 * The addresses a destination may be connected at: a literal is checked as is, a name is
 * resolved with the policy's resolver, and every address must be public, unless the policy
 * allows private networks or one of `origins` is allow-listed. Throws `GuardRefusal`.
 */
export async function checkedAddresses(
  policy: FetchPolicy,
  host: string,
  origins: readonly string[],
): Promise<ResolvedAddress[]> {
  const h = normaliseHost(host);
  const open = isOpen(policy, origins);
  const refuse = () =>
    new GuardRefusal(
      `Refused to connect to ${h}: it resolves to a private or reserved address`,
      true,
    );
  if (isIpLiteral(h)) {
    if (!open && !isPublicAddress(h)) throw refuse();
    return [{ address: h, family: h.includes(":") ? 6 : 4 }];
  }
  if (!open && !isPublicHost(h)) throw refuse();
  let addresses: ResolvedAddress[];
  try {
    addresses = await (policy.resolve ?? systemResolver)(h);
  } catch {
    throw new GuardRefusal(`DNS lookup failed for ${h}`, false);
  }
  if (addresses.length === 0) throw new GuardRefusal(`DNS lookup failed for ${h}`, false);
  if (!open && addresses.some((a) => !isPublicAddress(a.address))) throw refuse();
  return addresses;
}
