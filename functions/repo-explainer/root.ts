/**
 * The root information document of repo-explainer (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "repo-explainer",
  description:
    "Explains a GitHub repository (what it is, how it is organised, how to start) with a text-generation model.",
  usage: "GET /explain?url=<url>",
};
