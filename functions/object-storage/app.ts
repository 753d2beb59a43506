/** The object-storage experiment's app. */
import { createExperimentApp, type ExperimentApp, type RootInfo } from "../../shared/app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "object-storage",
  description: "Stores uploaded bytes in a private or a public S3-compatible bucket.",
  usage: "PUT /object?key=<key>&public=<true|false>",
};

/** What this experiment needs from its environment. */
// deno-lint-ignore no-empty-interface
export interface Bindings {}

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(_bindings: Bindings): ExperimentApp {
  const app = createExperimentApp(ROOT);
  return app;
}
