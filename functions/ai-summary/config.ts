/** ai-summary's bindings from the environment (what main.ts serves). */
import { aiFromEnv } from "../../shared/bindings/ai/mod.ts";
import {
  Admission,
  admissionFromEnv,
  NARROW_PAGE_ADMISSION,
} from "../../shared/contract/admission.ts";
import type { Env } from "../../shared/contract/config.ts";
import { fetchPolicyFromEnv } from "../../shared/net/fetch_policy.ts";
import type { Bindings } from "./app.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8004;

/** The fetch policy, page admission (`PAGE_*`) and the `AI` binding. */
export function bindingsFromEnv(env: Env): Bindings {
  return {
    fetchPolicy: fetchPolicyFromEnv(env),
    admission: new Admission(admissionFromEnv(env, NARROW_PAGE_ADMISSION)),
    AI: aiFromEnv(env),
  };
}
