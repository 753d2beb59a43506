/**
 * The outbound fetch policy's defaults, and reading it from the environment: apart from
 * safe_fetch.ts, so that a service's start-up (its config.ts) does not load the fetch machinery
 * and the address classifier, which only requests need (bench/bundle_cold_start.ts).
 */
import type { Env } from "../contract/config.ts";
import type { FetchPolicy } from "./safe_fetch.ts";

/** Defaults of `FETCH_TIMEOUT_MS` and `FETCH_MAX_BYTES`. */
export const DEFAULT_FETCH_POLICY: FetchPolicy = {
  allowPrivate: false,
  timeoutMs: 10_000,
  maxBytes: 5 * 1024 * 1024,
};

/**
 * The outbound fetch policy: `ALLOW_PRIVATE_NETWORKS`, `FETCH_TIMEOUT_MS`, `FETCH_MAX_BYTES`,
 * and `DEV_MODE` for the hint.
 */
export function fetchPolicyFromEnv(env: Env): FetchPolicy {
  return {
    allowPrivate: env.bool("ALLOW_PRIVATE_NETWORKS", false),
    devMode: env.bool("DEV_MODE", false),
    timeoutMs: env.int("FETCH_TIMEOUT_MS", DEFAULT_FETCH_POLICY.timeoutMs, 100, 120_000),
    maxBytes: env.int("FETCH_MAX_BYTES", DEFAULT_FETCH_POLICY.maxBytes, 1024, 100 * 1024 * 1024),
  };
}
