/** Entrypoint of ai-summary: reads the environment, builds the bindings, serves the app. */
import { aiFromEnv } from "../../shared/ai.ts";
import { fetchPolicyFromEnv } from "../../shared/config.ts";
import { serveExperiment } from "../../shared/serve.ts";
import { createApp } from "./app.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8004;

if (import.meta.main) {
  await serveExperiment({
    port: DEFAULT_PORT,
    build: (env) => createApp({ fetchPolicy: fetchPolicyFromEnv(env), ai: aiFromEnv(env) }),
  });
}
