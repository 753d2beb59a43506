/**
 * The root information document of screenshot (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "screenshot",
  description:
    "Takes a screenshot (PNG, JPEG or WebP) or a PDF of a web page in headless Chromium.",
  usage: "GET /screenshot?url=<url>",
};
