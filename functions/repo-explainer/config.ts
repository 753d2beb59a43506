/** repo-explainer's bindings from the environment (what main.ts serves). */
import { aiFromEnv } from "../../shared/bindings/ai/mod.ts";
import type { Env } from "../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../shared/net/fetch_policy.ts";
import type { Bindings } from "./app.ts";
import { githubConfigFromEnv } from "./github_config.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8005;

/** The fetch policy, the `AI` binding and the GitHub API (`GITHUB_TOKEN`, `GITHUB_API_URL`). */
export function bindingsFromEnv(env: Env): Bindings {
  return {
    fetchPolicy: fetchPolicyFromEnv(env),
    AI: aiFromEnv(env),
    github: githubConfigFromEnv(env),
  };
}
