/** Entrypoint of object-storage: serves the app over the bindings its config.ts reads. */
import { serveExperiment } from "../../shared/contract/serve.ts";
import { createApp } from "./app.ts";
import { bindingsFromEnv, DEFAULT_PORT } from "./config.ts";

if (import.meta.main) await serveExperiment(DEFAULT_PORT, bindingsFromEnv, createApp);
