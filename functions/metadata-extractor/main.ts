/** Entrypoint of metadata-extractor: reads the environment, builds the bindings, serves the app. */
import { fetchPolicyFromEnv } from "../../shared/contract/config.ts";
import { serveExperiment } from "../../shared/contract/serve.ts";
import { createApp } from "./app.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8002;

if (import.meta.main) {
  await serveExperiment({
    port: DEFAULT_PORT,
    build: (env) => createApp({ fetchPolicy: fetchPolicyFromEnv(env) }),
  });
}
