/**
 * The root information document of devtools-inspector (`GET /`), apart from app.ts: a cold start serves
 * it without loading the app (shared/contract/front.ts).
 */
import type { RootInfo } from "../../shared/contract/light_app.ts";

/** The root information document. */
export const ROOT: RootInfo = {
  name: "devtools-inspector",
  description:
    "Inspects a URL as the network tab and a header audit would: redirects, timings, headers, cookies, caching, compression, a scored security audit and page statistics.",
  usage: "GET /inspect?url=<url>",
};
