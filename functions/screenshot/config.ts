/** screenshot's bindings from the environment (what main.ts serves). */
import { browserFromEnv } from "../../shared/bindings/browser/mod.ts";
import type { Env } from "../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../shared/net/fetch_policy.ts";
import type { Bindings } from "./app.ts";
import { limitsFromEnv } from "./limits.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8006;

/** The `BROWSER` binding (closed at shutdown), the fetch policy and the capture limits. */
export function bindingsFromEnv(env: Env): Bindings {
  const browser = browserFromEnv(env);
  return {
    BROWSER: browser,
    fetchPolicy: fetchPolicyFromEnv(env),
    limits: limitsFromEnv(env),
    close: () => browser.close(),
  };
}
