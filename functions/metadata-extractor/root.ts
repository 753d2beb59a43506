/**
 * The root information document of metadata-extractor (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "metadata-extractor",
  description:
    "Extracts what a link preview needs from a web page: title, description, images, icons, Open Graph, Twitter cards, JSON-LD, feeds and oEmbed.",
  usage: "GET /metadata?url=<url>",
};
