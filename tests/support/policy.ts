/** Fetch policies for tests: open (loopback fixtures allowed) and guarded with a fake resolver. */
import { DEFAULT_FETCH_POLICY } from "../../shared/net/fetch_policy.ts";
import type { FetchPolicy, Resolver } from "../../shared/net/safe_fetch.ts";

/** Happy-path tests: the address check off so loopback fixture servers are reachable. */
export function openPolicy(overrides: Partial<FetchPolicy> = {}): FetchPolicy {
  return { ...DEFAULT_FETCH_POLICY, allowPrivate: true, timeoutMs: 5_000, ...overrides };
}

/**
 * Guard tests: the address check on, with names resolved from `names` (e.g.
 * `{"public.test": "127.0.0.1"}`) so a test can name a host that resolves to loopback
 * without DNS, and `allowOrigins` let through as if public.
 */
export function guardedPolicy(
  names: Record<string, string> = {},
  allowOrigins: string[] = [],
  overrides: Partial<FetchPolicy> = {},
): FetchPolicy {
  const resolve: Resolver = (hostname) => {
    const address = names[hostname];
    if (!address) {
      return Promise.reject(Object.assign(new Error("ENOTFOUND"), { code: "ENOTFOUND" }));
    }
    return Promise.resolve([{ address, family: address.includes(":") ? 6 : 4 }]);
  };
  return {
    ...DEFAULT_FETCH_POLICY,
    timeoutMs: 5_000,
    resolve,
    allowOrigins: new Set(allowOrigins),
    ...overrides,
  };
}
