/** The metadata-extractor experiment's app. */
import { createExperimentApp, type ExperimentApp, type RootInfo } from "../../shared/app.ts";
import type { FetchPolicy } from "../../shared/safe_fetch.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "metadata-extractor",
  description:
    "Extracts what a link preview needs from a web page: title, description, images, icons, Open Graph, Twitter cards, JSON-LD, feeds and oEmbed.",
  usage: "GET /metadata?url=<url>",
};

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Where outbound fetches may go, and their limits. */
  fetchPolicy: FetchPolicy;
}

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings): ExperimentApp {
  const app = createExperimentApp(ROOT);
  void bindings; // used by the experiment's routes
  return app;
}
