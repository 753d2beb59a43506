/** Entrypoint of screenshot: reads the environment, builds the bindings, serves the app. */
import { browserFromEnv } from "../../shared/bindings/browser/mod.ts";
import { fetchPolicyFromEnv } from "../../shared/contract/config.ts";
import { serveExperiment } from "../../shared/contract/serve.ts";
import { createApp } from "./app.ts";
import { limitsFromEnv } from "./limits.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8006;

if (import.meta.main) {
  await serveExperiment({
    port: DEFAULT_PORT,
    build: (env) => {
      const browser = browserFromEnv(env);
      const app = createApp({ browser, fetchPolicy: fetchPolicyFromEnv(env) }, {
        limits: limitsFromEnv(env),
      });
      // A launched Chromium must not outlive the service.
      for (const signal of ["SIGINT", "SIGTERM"] as const) {
        Deno.addSignalListener(signal, () => {
          browser.close().finally(() => Deno.exit(0));
        });
      }
      return app;
    },
  });
}
