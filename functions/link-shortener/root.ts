/**
 * The root information document of link-shortener (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "link-shortener",
  description:
    "Shortens links: stores short codes in libSQL behind a key-value cache and redirects them.",
  usage: 'POST /shorten {"url":"<url>"}',
};
