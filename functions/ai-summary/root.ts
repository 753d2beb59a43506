/**
 * The root information document of ai-summary (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "ai-summary",
  description: "Summarises a web page with a text-generation model.",
  usage: "GET /summary?url=<url>",
};
