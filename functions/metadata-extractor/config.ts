/** metadata-extractor's bindings from the environment (what main.ts serves). */
import { Admission, admissionFromEnv } from "../../shared/contract/admission.ts";
import type { Env } from "../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../shared/net/fetch_policy.ts";
import type { Bindings } from "./app.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8002;

/**
 * The fetch policy (`ALLOW_PRIVATE_NETWORKS`, `FETCH_TIMEOUT_MS`, `FETCH_MAX_BYTES`), page
 * admission (`PAGE_*`) and the time budget of a page's parse and reading (`ANALYSIS_BUDGET_MS`).
 */
export function bindingsFromEnv(env: Env): Bindings {
  return {
    fetchPolicy: fetchPolicyFromEnv(env),
    admission: new Admission(admissionFromEnv(env)),
    analysisBudgetMs: env.int("ANALYSIS_BUDGET_MS", 10_000, 100, 120_000),
  };
}
