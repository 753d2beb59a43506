/** object-storage's bindings from the environment (what main.ts serves). */
export { bucketsFromEnv as bindingsFromEnv } from "../../shared/bindings/bucket/mod.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8008;
