/** ai-summary's bindings from the environment (what main.ts serves). */
import { aiFromEnv } from "../../shared/bindings/ai/mod.ts";
import {
  Admission,
  admissionFromEnv,
  type AdmissionLimits,
  DEFAULT_PAGE_ADMISSION,
} from "../../shared/contract/admission.ts";
import type { Env } from "../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../shared/net/fetch_policy.ts";
import type { Bindings } from "./app.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8004;

/**
 * Pages read at once (`/summary` and `/read` together): two, not the page routes' four, since
 * `/read`'s browser-grade tree (parse5) takes more memory than the other routes' parse (8 in
 * flight on a 279 KiB news page peaked at 272 MiB with four, when `/summary` used it too; with
 * the lean tree `/summary` peaks at 168-176 MiB with two).
 */
export const SUMMARY_ADMISSION: AdmissionLimits = { ...DEFAULT_PAGE_ADMISSION, concurrency: 2 };

/** The fetch policy, page admission (`PAGE_*`) and the `AI` binding. */
export function bindingsFromEnv(env: Env): Bindings {
  return {
    fetchPolicy: fetchPolicyFromEnv(env),
    admission: new Admission(admissionFromEnv(env, SUMMARY_ADMISSION)),
    AI: aiFromEnv(env),
  };
}
