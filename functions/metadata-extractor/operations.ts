/**
 * What the OpenAPI document says of metadata-extractor's routes beyond their declarations in
 * app.ts: summaries, descriptions and the response schemas (zod), loaded with the document
 * (shared/contract/light_app.ts), never by a `/metadata` request.
 */
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { MetadataResultSchema } from "./schema.ts";
import { METADATA_EXAMPLE } from "./openapi_example.ts";

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  extractMetadata: {
    summary: "Extract link-preview metadata from a web page",
    description: "Fetches the page and returns its normalised metadata (each field from the " +
      "first source of its fallback order), every Open Graph, Twitter and JSON-LD value, " +
      "icons, feeds, oEmbed and hreflang alternates. Every URL is absolute. An upstream error " +
      "page is still described (`status` says so); an image URL is described as an image.",
    responses: {
      200: jsonContent(MetadataResultSchema, "The page's metadata", METADATA_EXAMPLE),
      ...errorResponses("INVALID_URL", "FETCH_ERROR", "PARSE_ERROR"),
    },
  },
};
