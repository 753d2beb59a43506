/**
 * What the page routes (/analyze, /inspect, /metadata) read from the environment: one reader,
 * so the three experiments cannot drift apart.
 */
import {
  Admission,
  admissionFromEnv,
  type AdmissionLimits,
  DEFAULT_PAGE_ADMISSION,
} from "../contract/admission.ts";
import type { Env } from "../contract/config.ts";
import { fetchPolicyFromEnv } from "./fetch_policy.ts";
import type { FetchPolicy } from "./safe_fetch.ts";

/** A page route's bindings. */
export interface PageBindings {
  fetchPolicy: FetchPolicy;
  admission: Admission;
  /** Milliseconds a page's parse and analysis may take. */
  analysisBudgetMs: number;
}

/**
 * The fetch policy (`ALLOW_PRIVATE_NETWORKS`, `FETCH_TIMEOUT_MS`, `FETCH_MAX_BYTES`), page
 * admission (`PAGE_*`) and the time budget of a page's parse and analysis
 * (`ANALYSIS_BUDGET_MS`: default 10 s, 100 ms to 2 min); `PAGE_*` default to `defaults`.
 */
export function pageBindingsFromEnv(
  env: Env,
  defaults: AdmissionLimits = DEFAULT_PAGE_ADMISSION,
): PageBindings {
  return {
    fetchPolicy: fetchPolicyFromEnv(env),
    admission: new Admission(admissionFromEnv(env, defaults)),
    analysisBudgetMs: env.int("ANALYSIS_BUDGET_MS", 10_000, 100, 120_000),
  };
}
