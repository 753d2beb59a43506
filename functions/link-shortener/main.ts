/** Entrypoint of link-shortener: serves the app over the bindings its config.ts reads. */
import { lazyApp } from "../../shared/contract/front.ts";
import { serveExperiment } from "../../shared/contract/serve.ts";
import { bindingsFromEnv, DEFAULT_PORT } from "./config.ts";
import { ROOT } from "./root.ts";

// The app (its schemas, its routes) is imported on the first request other than GET /.
const app = lazyApp(ROOT, () => import("./app.ts"));
if (import.meta.main) await serveExperiment(DEFAULT_PORT, bindingsFromEnv, app);
