/** Entrypoint of object-storage: reads the environment, builds the bindings, serves the app. */
import { bucketsFromEnv } from "../../shared/bindings/bucket/env.ts";
import { serveExperiment } from "../../shared/contract/serve.ts";
import { createApp } from "./app.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8008;

if (import.meta.main) {
  await serveExperiment({
    port: DEFAULT_PORT,
    build: async (env) => createApp(await bucketsFromEnv(env)),
  });
}
