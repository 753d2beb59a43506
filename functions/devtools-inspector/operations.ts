/**
 * What the OpenAPI document says of devtools-inspector's route beyond its declaration in
 * app.ts: summary, description and the response schemas (zod), loaded with the document
 * (shared/contract/light_app.ts), never by an `/inspect` request.
 */
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { InspectResultSchema } from "./schema.ts";
import { INSPECT_EXAMPLE } from "./openapi_example.ts";

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  inspectSite: {
    summary: "What the network tab and a security-header audit would show for a URL",
    description: "Fetches the URL (following redirects by hand) and reports each redirect hop, " +
      "phase timings, the HTTP version, response headers, cookies (never their values), caching " +
      "with a verdict, compression, the TLS certificate, protocol and cipher, a security audit " +
      "scored as the MDN HTTP Observatory scores " +
      "(checks, score, grade) and statistics of the HTML page. An upstream error status is still " +
      "a 200 answer whose `status` says so; a body that is not HTML has `page: null`.",
    responses: {
      200: jsonContent(
        InspectResultSchema,
        "The inspection; `status` is the upstream status",
        INSPECT_EXAMPLE,
      ),
      ...errorResponses("INVALID_URL", "FETCH_ERROR", "PARSE_ERROR"),
    },
  },
};
