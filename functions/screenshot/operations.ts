/**
 * What the OpenAPI document says of screenshot's route beyond its declaration in app.ts: its
 * summary, description and responses (zod), loaded with the document
 * (shared/contract/light_app.ts), never by a `/screenshot` request.
 */
import { z } from "@hono/zod-openapi";
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses } from "../../shared/contract/openapi.ts";
import { CACHE_CONTROL, CACHE_HEADER } from "./limits.ts";

/** The 200 body: image bytes (PNG unless `format` says otherwise), or the PDF. */
const BinarySchema = z.string().openapi({ type: "string", format: "binary" });

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  capturePage: {
    summary: "Screenshot a web page",
    description: "Loads the page in a fresh incognito browser context (default viewport " +
      "1280x800), waits until the network is idle and returns a PNG. Every connection the page " +
      "makes is held to the address policy: private and reserved addresses are refused.",
    responses: {
      200: {
        description: "The screenshot (PNG unless `format` says otherwise), or the PDF",
        headers: {
          "Cache-Control": { schema: { type: "string", example: CACHE_CONTROL } },
          "ETag": { schema: { type: "string" }, description: "Strong ETag of the image bytes" },
          [CACHE_HEADER]: {
            schema: { type: "string", enum: ["HIT", "MISS"] },
            description: "HIT when served from the in-process cache (same request within 60 s)",
          },
        },
        content: {
          "image/png": { schema: BinarySchema },
          "image/jpeg": { schema: BinarySchema },
          "image/webp": { schema: BinarySchema },
          "application/pdf": { schema: BinarySchema },
        },
      },
      304: { description: "Not modified: `If-None-Match` matched the image's ETag" },
      ...errorResponses("INVALID_URL", "INVALID_INPUT", "SCREENSHOT_ERROR"),
    },
  },
};
