/**
 * What the OpenAPI document says of dependency-analyzer's route beyond its declaration in
 * app.ts: summary, description and the response schemas (zod), loaded with the document
 * (shared/contract/light_app.ts), never by an `/analyze` request.
 */
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { AnalyzeResultSchema } from "./schema.ts";
import { ANALYZE_EXAMPLE } from "./openapi_example.ts";

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  analyzePage: {
    summary: "What a page (or a package manifest) depends on",
    description:
      "Fetches the URL and lists its scripts, stylesheets, resource hints, iframes, import-map " +
      'entries, hosts and detected libraries (`kind: "page"`), or, for a package.json, ' +
      'deno.json or import map, its declared dependencies (`kind: "manifest"`).',
    responses: {
      200: jsonContent(
        AnalyzeResultSchema,
        "The analysis; `status` is the upstream status",
        ANALYZE_EXAMPLE,
      ),
      ...errorResponses("INVALID_URL", "FETCH_ERROR", "PARSE_ERROR"),
    },
  },
};
