/**
 * The root information document of dependency-analyzer (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "dependency-analyzer",
  description:
    "Lists what a web page depends on: scripts, stylesheets, preloads, iframes, import maps, third-party hosts and detected libraries with versions.",
  usage: "GET /analyze?url=<url>",
};
