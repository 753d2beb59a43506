/** metadata-extractor's bindings from the environment (what main.ts serves). */
import type { Env } from "../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../shared/net/fetch_policy.ts";
import type { Bindings } from "./app.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8002;

/** The fetch policy (`ALLOW_PRIVATE_NETWORKS`, `FETCH_TIMEOUT_MS`, `FETCH_MAX_BYTES`). */
export function bindingsFromEnv(env: Env): Bindings {
  return { fetchPolicy: fetchPolicyFromEnv(env) };
}
