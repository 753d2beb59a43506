/**
 * The root information document of object-storage (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "object-storage",
  description: "Stores uploaded bytes in a private or a public S3-compatible bucket.",
  usage: "PUT /object?key=<key>&public=<true|false>",
};
