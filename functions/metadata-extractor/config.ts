/** metadata-extractor's bindings from the environment (what main.ts serves). */
import { NARROW_PAGE_ADMISSION } from "../../shared/contract/admission.ts";
import type { Env } from "../../shared/contract/config.ts";
import { pageBindingsFromEnv } from "../../shared/net/page_bindings.ts";
import type { Bindings } from "./app.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8002;

/**
 * The page routes' bindings (shared/net/page_bindings.ts: fetch policy, admission, budget),
 * two pages at once by default (NARROW_PAGE_ADMISSION: a burst's peak memory).
 */
export function bindingsFromEnv(env: Env): Bindings {
  return pageBindingsFromEnv(env, NARROW_PAGE_ADMISSION);
}
