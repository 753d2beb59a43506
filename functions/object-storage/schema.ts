/**
 * The zod schemas of `POST /object/sign`: its JSON body (checked by readJsonBody) and its
 * answer. Loaded by the first signing request or the document, never by an upload or a read.
 */
import { extendZodWithOpenApi, z } from "@hono/zod-openapi";
import { isValidKey } from "../../shared/bindings/bucket/mod.ts";
import { KEY_DESCRIPTION, MAX_CONTENT_TYPE, MEDIA_TYPE, OBJECT_MESSAGES } from "./params.ts";
import { MAX_EXPIRES_IN } from "./signing.ts";

// In a bundle, this module's chunk may run before the one in which @hono/zod-openapi adds
// `.openapi()` to zod (esbuild's code splitting takes `z` from zod itself): add it first here
// (a no-op once done).
extendZodWithOpenApi(z);

/** `POST /object/sign` body: what the link will allow. */
export const SignBody = z.object({
  key: z.string().min(1).refine(isValidKey, OBJECT_MESSAGES.invalidKey).openapi({
    description: KEY_DESCRIPTION,
    example: "uploads/report.pdf",
  }),
  method: z.enum(["GET", "PUT"]).openapi({ description: "The one operation the link allows" }),
  expiresIn: z.number().int().min(1).max(MAX_EXPIRES_IN).openapi({
    description: `Seconds the link lives, 1-${MAX_EXPIRES_IN} (7 days)`,
    example: 900,
  }),
  maxBytes: z.number().int().min(1).optional().openapi({
    description: "PUT only: the most bytes the upload may have (at most MAX_OBJECT_BYTES, " +
      "which also applies when absent)",
    example: 1048576,
  }),
  contentType: z.string().max(MAX_CONTENT_TYPE)
    .regex(MEDIA_TYPE, OBJECT_MESSAGES.invalidContentType)
    .optional().openapi({
      description: "PUT only: the Content-Type the upload must declare",
      example: "application/pdf",
    }),
  public: z.boolean().optional().openapi({ description: "The public bucket (default private)" }),
}).strict().refine(
  (b) => b.method === "PUT" || (b.maxBytes === undefined && b.contentType === undefined),
  { message: "maxBytes and contentType apply to PUT links only" },
).openapi("SignRequest");

/** `POST /object/sign` answer. */
export const SignResultSchema = z.object({
  url: z.string().openapi({
    description: "Absolute URL on this service (`/object/signed?...&sig=`)",
  }),
  expiresAt: z.string().openapi({ description: "ISO 8601 time the link stops working" }),
}).openapi("SignResult");
