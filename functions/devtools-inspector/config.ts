/** devtools-inspector's bindings from the environment (what main.ts serves). */
import type { Env } from "../../shared/contract/config.ts";
import { pageBindingsFromEnv } from "../../shared/net/page_bindings.ts";
import type { Bindings } from "./app.ts";

/** The local port of this experiment (scripts/experiments.ts); `PORT` overrides it. */
export const DEFAULT_PORT = 8003;

/** The page routes' bindings (shared/net/page_bindings.ts: fetch policy, admission, budget). */
export function bindingsFromEnv(env: Env): Bindings {
  return pageBindingsFromEnv(env);
}
