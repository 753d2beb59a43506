/** Entrypoint of link-shortener: reads the environment, builds the bindings, serves the app. */
import { serveExperiment } from "../../shared/contract/serve.ts";
import { createApp } from "./app.ts";
import { bindingsFromEnv } from "./config.ts";
import { bufferedLog } from "./log_buffer.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8007;

if (import.meta.main) {
  await serveExperiment({
    port: DEFAULT_PORT,
    // The request log goes to stderr in batches: one write per request would cost more
    // than the redirect itself (see README, benchmark).
    build: async (env) => createApp(await bindingsFromEnv(env), { log: bufferedLog() }),
  });
}
