/**
 * What the OpenAPI document says of object-storage's routes beyond their declarations in
 * app.ts: summaries, descriptions, request bodies and response schemas (zod), and the admin
 * token's security scheme; loaded with the document (shared/contract/light_app.ts), never by
 * an upload or a read.
 */
import { z } from "@hono/zod-openapi";
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonBody, jsonContent } from "../../shared/contract/openapi.ts";
import { ADMIN_TOKEN_SCHEME } from "./params.ts";
import { SignBody, SignResultSchema } from "./schema.ts";

const UploadResultSchema = z.object({
  key: z.string().openapi({ description: "The key that was sent" }),
  uploaded: z.literal(true).openapi({ description: "Always true on success" }),
  url: z.string().optional().openapi({
    description: "Direct URL (`<PUBLIC_BUCKET_URL>/<key>`, key path-encoded); only for public " +
      "uploads when PUBLIC_BUCKET_URL is configured",
  }),
}).openapi("ObjectUploadResult");

const DeleteResultSchema = z.object({
  key: z.string(),
  deleted: z.literal(true),
}).openapi("ObjectDeleteResult");

const ObjectEntrySchema = z.object({
  key: z.string(),
  size: z.number().int().openapi({ description: "Bytes" }),
  contentType: z.string(),
  etag: z.string().openapi({ description: "Entity tag, quoted as in the ETag header" }),
  uploadedAt: z.string().openapi({ description: "ISO 8601 time of the upload" }),
}).openapi("ObjectEntry");

const ListResultSchema = z.object({
  objects: z.array(ObjectEntrySchema),
  cursor: z.string().nullable().openapi({
    description: "Pass as `cursor` for the next page; null at the end",
  }),
}).openapi("ObjectList");

const BINARY = { "*/*": { schema: z.string().openapi({ format: "binary" }) } };

const READ_HEADERS = {
  "Content-Type": { schema: { type: "string" as const } },
  "Content-Length": { schema: { type: "integer" as const } },
  ETag: { schema: { type: "string" as const } },
  "Last-Modified": { schema: { type: "string" as const } },
};

const SIGNING_NOTE = "Answers 404 unless OBJECT_SIGNING_KEY and OBJECT_ADMIN_TOKEN are both set.";

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  putObject: {
    summary: "Upload an object",
    description: "Streams the raw request body into the private bucket, or the public one " +
      "with `public=true`, under `key`. The request Content-Type is recorded on the object. A " +
      "body over MAX_OBJECT_BYTES is refused with 413, a body that sends nothing for 30 s with " +
      "408, and nothing is stored. Without `key` the 400 body is " +
      'exactly `{"error":"Missing key"}`.',
    // The handler streams the raw bytes.
    request: { body: { content: BINARY, required: false } },
    responses: {
      200: jsonContent(UploadResultSchema, "Stored", {
        key: "photos/cat.jpg",
        uploaded: true,
        url: "https://cdn.example.com/photos/cat.jpg",
      }),
      ...errorResponses(
        "INVALID_INPUT",
        [408, "INVALID_INPUT"],
        [413, "INVALID_INPUT"],
        "STORAGE_ERROR",
      ),
    },
  },
  getObject: {
    summary: "Read an object",
    description:
      "Streams the object with its Content-Type, Content-Length, ETag and Last-Modified. " +
      "`Range: bytes=` gives 206 (one range; others are ignored); `If-None-Match` gives 304. " +
      "HEAD answers the same headers without the body.",
    responses: {
      200: { description: "The object", headers: READ_HEADERS, content: BINARY },
      206: { description: "The requested range (Content-Range)", content: BINARY },
      304: { description: "Not modified (If-None-Match matched)" },
      ...errorResponses("INVALID_INPUT", "NOT_FOUND", [416, "INVALID_INPUT"], "STORAGE_ERROR"),
    },
  },
  headObject: {
    summary: "Describe an object",
    responses: {
      200: { description: "The object's headers, no body", headers: READ_HEADERS },
      304: { description: "Not modified (If-None-Match matched)" },
      ...errorResponses("INVALID_INPUT", "NOT_FOUND", "STORAGE_ERROR"),
    },
  },
  deleteObject: {
    summary: "Delete an object",
    responses: {
      200: jsonContent(DeleteResultSchema, "Deleted", { key: "photos/cat.jpg", deleted: true }),
      ...errorResponses("INVALID_INPUT", "NOT_FOUND", "STORAGE_ERROR"),
    },
  },
  listObjects: {
    summary: "List objects",
    description: "Objects in key order (UTF-8 bytes), a page at a time.",
    responses: {
      200: jsonContent(ListResultSchema, "One page", {
        objects: [{
          key: "photos/cat.jpg",
          size: 51234,
          contentType: "image/jpeg",
          etag: '"5d41402abc4b2a76b9719d911017c592"',
          uploadedAt: "2026-11-23T10:48:38.444Z",
        }],
        cursor: null,
      }),
      ...errorResponses("INVALID_INPUT", "STORAGE_ERROR"),
    },
  },
  getPublicObject: {
    summary: "Read a public object by its direct URL",
    description: "With an S3 public bucket and PUBLIC_BUCKET_URL set: 302 to " +
      "`<PUBLIC_BUCKET_URL>/<key>`, where the store or its CDN serves the object. Otherwise " +
      "(the local folder default, or S3 without PUBLIC_BUCKET_URL) the service serves the " +
      "public bucket itself, with the same headers, Range and If-None-Match handling as " +
      "`GET /object`.",
    responses: {
      200: { description: "The object", headers: READ_HEADERS, content: BINARY },
      206: { description: "The requested range (Content-Range)", content: BINARY },
      302: {
        description: "Redirect to `<PUBLIC_BUCKET_URL>/<key>` (S3 public bucket)",
        headers: { Location: { schema: { type: "string" as const } } },
      },
      304: { description: "Not modified (If-None-Match matched)" },
      ...errorResponses("INVALID_INPUT", "NOT_FOUND", [416, "INVALID_INPUT"], "STORAGE_ERROR"),
    },
  },
  signObjectUrl: {
    summary: "Create a signed link",
    description: "Needs `Authorization: Bearer <OBJECT_ADMIN_TOKEN>`. Answers a URL that lets " +
      "whoever holds it do one operation (GET or PUT) on one key until `expiresAt`; PUT links " +
      "carry a size and a Content-Type limit, enforced by this service as the bytes stream " +
      "in. " + SIGNING_NOTE,
    request: {
      body: jsonBody(SignBody, {
        key: "uploads/report.pdf",
        method: "PUT",
        expiresIn: 900,
        maxBytes: 1048576,
        contentType: "application/pdf",
      }),
    },
    security: [{ [ADMIN_TOKEN_SCHEME]: [] }],
    responses: {
      200: jsonContent(SignResultSchema, "The link", {
        url: "https://files.example.com/object/signed?key=uploads%2Freport.pdf" +
          "&expires=1767225600&maxBytes=1048576&contentType=application%2Fpdf" +
          "&sig=3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
        expiresAt: "2026-01-01T00:00:00.000Z",
      }),
      ...errorResponses("INVALID_INPUT", [401, "INVALID_INPUT"], "NOT_FOUND"),
    },
  },
  getSignedObject: {
    summary: "Read an object through a signed link",
    description: "As `GET /object`, for the key and bucket the link names. A link changed in " +
      "any way, signed for PUT, or expired is 403. " + SIGNING_NOTE,
    responses: {
      200: { description: "The object", headers: READ_HEADERS, content: BINARY },
      206: { description: "The requested range (Content-Range)", content: BINARY },
      304: { description: "Not modified (If-None-Match matched)" },
      ...errorResponses([403, "INVALID_INPUT"], "NOT_FOUND", "STORAGE_ERROR"),
    },
  },
  putSignedObject: {
    summary: "Upload an object through a signed link",
    description: "As `PUT /object`, for the key and bucket the link names: a body over the " +
      "link's maxBytes is 413 and nothing is stored; a Content-Type other than the link's is " +
      "403. A link changed in any way, signed for GET, or expired is 403. " + SIGNING_NOTE,
    request: { body: { content: BINARY, required: false } },
    responses: {
      200: jsonContent(UploadResultSchema, "Stored", {
        key: "uploads/report.pdf",
        uploaded: true,
      }),
      ...errorResponses(
        [403, "INVALID_INPUT"],
        [408, "INVALID_INPUT"],
        [413, "INVALID_INPUT"],
        "NOT_FOUND",
        "STORAGE_ERROR",
      ),
    },
  },
};

/** The components the operations refer to: the admin token's bearer scheme. */
export const COMPONENTS = {
  securitySchemes: {
    [ADMIN_TOKEN_SCHEME]: {
      type: "http",
      scheme: "bearer",
      description: "OBJECT_ADMIN_TOKEN, the token that may create signed links",
    },
  },
};
