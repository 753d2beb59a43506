/** Entrypoint of repo-explainer: reads the environment, builds the bindings, serves the app. */
import { aiFromEnv } from "../../shared/bindings/ai/mod.ts";
import { fetchPolicyFromEnv } from "../../shared/contract/config.ts";
import { serveExperiment } from "../../shared/contract/serve.ts";
import { createApp } from "./app.ts";
import { githubConfigFromEnv } from "./github_api.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8005;

if (import.meta.main) {
  await serveExperiment({
    port: DEFAULT_PORT,
    build: (env) =>
      createApp({
        fetchPolicy: fetchPolicyFromEnv(env),
        ai: aiFromEnv(env),
        github: githubConfigFromEnv(env),
      }),
  });
}
