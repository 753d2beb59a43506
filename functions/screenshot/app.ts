/** The screenshot experiment's app. */
import { createExperimentApp, type ExperimentApp, type RootInfo } from "../../shared/app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "screenshot",
  description: "Takes a PNG screenshot of a web page in headless Chromium.",
  usage: "GET /screenshot?url=<url>",
};

/** What this experiment needs from its environment. */
// deno-lint-ignore no-empty-interface
export interface Bindings {}

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(_bindings: Bindings): ExperimentApp {
  const app = createExperimentApp(ROOT);
  return app;
}
