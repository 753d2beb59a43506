/**
 * Route declarations of object-storage: the query schemas (with the contract's exact messages)
 * and the responses each route documents in `/openapi.json`.
 */
import { createRoute, z } from "@hono/zod-openapi";
import { isValidKey, isValidPrefix, MAX_KEY_BYTES } from "../../shared/bindings/bucket/mod.ts";
import { errorResponses, jsonBody, jsonContent } from "../../shared/contract/openapi.ts";
import { MESSAGES } from "../../shared/contract/validation.ts";
import { MAX_EXPIRES_IN } from "./signing.ts";

/** Messages of this experiment's 400s. */
export const OBJECT_MESSAGES = {
  invalidKey: "Invalid key",
  /** Missing key outside `PUT /object` (only the upload has the code-less body). */
  keyRequired: "Key is required",
  invalidPrefix: "Invalid prefix",
  invalidCursor: "Invalid cursor",
  invalidLimit: "limit must be an integer from 1 to 1000",
  invalidContentType: "Invalid Content-Type",
  notFound: "Object not found",
  rangeNotSatisfiable: "Range not satisfiable",
  storage: "Object storage operation failed",
} as const;

/** Listing page sizes. */
export const LIST_LIMIT = { default: 100, max: 1000 } as const;

const KEY_DESCRIPTION =
  `Object key: 1-${MAX_KEY_BYTES} bytes of UTF-8, \`/\`-separated segments; ` +
  "no control characters, backslash, leading `/`, empty, `.` or `..` segment.";

/** The `key` query parameter; `missing` is the message when it is absent or empty. */
function keyParam(missing: string) {
  return z.string({
    error: (issue) => issue.input === undefined ? missing : OBJECT_MESSAGES.invalidKey,
  })
    .min(1, missing)
    .refine(isValidKey, OBJECT_MESSAGES.invalidKey)
    .openapi({
      param: { name: "key", in: "query", required: true },
      description: KEY_DESCRIPTION,
      example: "photos/cat.jpg",
    });
}

const PublicParam = z.string().optional().openapi({
  param: { name: "public", in: "query", required: false },
  description: "`true` selects the public bucket; anything else, or absent, the private one",
  example: "true",
});

// A media type such as `image/png` or `text/plain; charset=utf-8`, printable ASCII only.
const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;[\x20-\x7e]*)?$/;

/** `PUT /object` query. */
export const UploadQuery = z.object({ key: keyParam(MESSAGES.missingKey), public: PublicParam });

/** `GET`/`HEAD`/`DELETE /object` query. */
export const ObjectQuery = z.object({
  key: keyParam(OBJECT_MESSAGES.keyRequired),
  public: PublicParam,
});

/** `PUT /object` headers. */
export const UploadHeaders = z.object({
  "content-type": z.string().max(255, OBJECT_MESSAGES.invalidContentType)
    .regex(MEDIA_TYPE, OBJECT_MESSAGES.invalidContentType)
    .optional()
    .openapi({
      param: { name: "content-type", in: "header", required: false },
      description: "Recorded as the object's content type (default application/octet-stream)",
      example: "image/png",
    }),
});

/** `GET /objects` query. */
export const ListQuery = z.object({
  public: PublicParam,
  prefix: z.string().refine(isValidPrefix, OBJECT_MESSAGES.invalidPrefix).optional().openapi({
    param: { name: "prefix", in: "query", required: false },
    description: "Only keys starting with this",
    example: "photos/",
  }),
  limit: z.string().regex(/^\d{1,4}$/, OBJECT_MESSAGES.invalidLimit)
    .transform(Number)
    .refine((n) => n >= 1 && n <= LIST_LIMIT.max, OBJECT_MESSAGES.invalidLimit)
    .optional()
    .openapi({
      param: { name: "limit", in: "query", required: false },
      description: `Page size, 1-${LIST_LIMIT.max} (default ${LIST_LIMIT.default})`,
      example: "100",
    }),
  cursor: z.string().optional().openapi({
    param: { name: "cursor", in: "query", required: false },
    description: "The `cursor` of the previous page",
  }),
});

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

/** `PUT /object`. */
export const uploadRoute = createRoute({
  method: "put",
  operationId: "putObject",
  path: "/object",
  summary: "Upload an object",
  description: "Streams the raw request body into the private bucket, or the public one with " +
    "`public=true`, under `key`. The request Content-Type is recorded on the object. A body over " +
    "MAX_OBJECT_BYTES is refused with 413, a body that sends nothing for 30 s with 408, and " +
    "nothing is stored. Without `key` the 400 body is " +
    'exactly `{"error":"Missing key"}`.',
  request: {
    query: UploadQuery,
    headers: UploadHeaders,
    // No validator runs for a non-JSON body: the handler streams the raw bytes.
    body: { content: BINARY, required: false },
  },
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
});

const READ_HEADERS = {
  "Content-Type": { schema: { type: "string" as const } },
  "Content-Length": { schema: { type: "integer" as const } },
  ETag: { schema: { type: "string" as const } },
  "Last-Modified": { schema: { type: "string" as const } },
};

/** `GET /object` (HEAD is answered by the same handler, without the body). */
export const readRoute = createRoute({
  method: "get",
  operationId: "getObject",
  path: "/object",
  summary: "Read an object",
  description:
    "Streams the object with its Content-Type, Content-Length, ETag and Last-Modified. " +
    "`Range: bytes=` gives 206 (one range; others are ignored); `If-None-Match` gives 304. " +
    "HEAD answers the same headers without the body.",
  request: { query: ObjectQuery },
  responses: {
    200: { description: "The object", headers: READ_HEADERS, content: BINARY },
    206: { description: "The requested range (Content-Range)", content: BINARY },
    304: { description: "Not modified (If-None-Match matched)" },
    ...errorResponses("INVALID_INPUT", "NOT_FOUND", [416, "INVALID_INPUT"], "STORAGE_ERROR"),
  },
});

/** `HEAD /object`, for the document only (Hono answers HEAD with the GET handler). */
export const headRoute = createRoute({
  method: "head",
  operationId: "headObject",
  path: "/object",
  summary: "Describe an object",
  request: { query: ObjectQuery },
  responses: {
    200: { description: "The object's headers, no body", headers: READ_HEADERS },
    304: { description: "Not modified (If-None-Match matched)" },
    ...errorResponses("INVALID_INPUT", "NOT_FOUND", "STORAGE_ERROR"),
  },
});

/** `DELETE /object`. */
export const deleteRoute = createRoute({
  method: "delete",
  operationId: "deleteObject",
  path: "/object",
  summary: "Delete an object",
  request: { query: ObjectQuery },
  responses: {
    200: jsonContent(DeleteResultSchema, "Deleted", { key: "photos/cat.jpg", deleted: true }),
    ...errorResponses("INVALID_INPUT", "NOT_FOUND", "STORAGE_ERROR"),
  },
});

/** `GET /objects`. */
export const listRoute = createRoute({
  method: "get",
  operationId: "listObjects",
  path: "/objects",
  summary: "List objects",
  description: "Objects in key order (UTF-8 bytes), a page at a time.",
  request: { query: ListQuery },
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
});

/** `GET /public/{key}`: the public bucket's direct URL (served, or redirected to the store). */
export const publicRoute = createRoute({
  method: "get",
  operationId: "getPublicObject",
  // `{key{.+}}` becomes Hono's `:key{.+}`, which spans `/`.
  path: "/public/{key{.+}}",
  summary: "Read a public object by its direct URL",
  description: "With an S3 public bucket and PUBLIC_BUCKET_URL set: 302 to " +
    "`<PUBLIC_BUCKET_URL>/<key>`, where the store or its CDN serves the object. Otherwise (the " +
    "local folder default, or S3 without PUBLIC_BUCKET_URL) the service serves the public " +
    "bucket itself, with the same headers, Range and If-None-Match handling as `GET /object`.",
  request: {
    params: z.object({
      key: z.string().openapi({
        param: { name: "key", in: "path", required: true },
        description: "The key, each segment percent-encoded",
        example: "photos/cat.jpg", // the key of PUT /object's example, so /docs' try-it finds it
      }),
    }),
  },
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
});

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
  contentType: z.string().max(255).regex(MEDIA_TYPE, OBJECT_MESSAGES.invalidContentType)
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

/** The query of a signed link (its fields are checked by the signature, not here). */
export const SignedQuery = z.object({
  key: z.string().optional().openapi({ param: { name: "key", in: "query" } }),
  public: z.string().optional().openapi({ param: { name: "public", in: "query" } }),
  expires: z.string().optional().openapi({
    param: { name: "expires", in: "query" },
    description: "Unix time the link expires",
  }),
  maxBytes: z.string().optional().openapi({ param: { name: "maxBytes", in: "query" } }),
  contentType: z.string().optional().openapi({ param: { name: "contentType", in: "query" } }),
  sig: z.string().optional().openapi({
    param: { name: "sig", in: "query" },
    description: "HMAC-SHA256 of every field and the method, base64url",
  }),
});

/** The security scheme of `POST /object/sign`: `OBJECT_ADMIN_TOKEN` as a bearer token. */
export const ADMIN_TOKEN_SCHEME = "adminToken";

const SIGNING_NOTE = "Answers 404 unless OBJECT_SIGNING_KEY and OBJECT_ADMIN_TOKEN are both set.";

/** `POST /object/sign`. */
export const signRoute = createRoute({
  method: "post",
  operationId: "signObjectUrl",
  path: "/object/sign",
  summary: "Create a signed link",
  description: "Needs `Authorization: Bearer <OBJECT_ADMIN_TOKEN>`. Answers a URL that lets " +
    "whoever holds it do one operation (GET or PUT) on one key until `expiresAt`; PUT links " +
    "carry a size and a Content-Type limit, enforced by this service as the bytes stream in. " +
    SIGNING_NOTE,
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
      url: "https://files.example.com/object/signed?key=uploads%2Freport.pdf&expires=1767225600" +
        "&maxBytes=1048576&contentType=application%2Fpdf&sig=3q2-7wAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA",
      expiresAt: "2026-01-01T00:00:00.000Z",
    }),
    ...errorResponses("INVALID_INPUT", [401, "INVALID_INPUT"], "NOT_FOUND"),
  },
});

/** `GET /object/signed`. */
export const signedReadRoute = createRoute({
  method: "get",
  operationId: "getSignedObject",
  path: "/object/signed",
  summary: "Read an object through a signed link",
  description: "As `GET /object`, for the key and bucket the link names. A link changed in " +
    "any way, signed for PUT, or expired is 403. " + SIGNING_NOTE,
  request: { query: SignedQuery },
  responses: {
    200: { description: "The object", headers: READ_HEADERS, content: BINARY },
    206: { description: "The requested range (Content-Range)", content: BINARY },
    304: { description: "Not modified (If-None-Match matched)" },
    ...errorResponses([403, "INVALID_INPUT"], "NOT_FOUND", "STORAGE_ERROR"),
  },
});

/** `PUT /object/signed`. */
export const signedUploadRoute = createRoute({
  method: "put",
  operationId: "putSignedObject",
  path: "/object/signed",
  summary: "Upload an object through a signed link",
  description: "As `PUT /object`, for the key and bucket the link names: a body over the " +
    "link's maxBytes is 413 and nothing is stored; a Content-Type other than the link's is " +
    "403. A link changed in any way, signed for GET, or expired is 403. " + SIGNING_NOTE,
  request: { query: SignedQuery, body: { content: BINARY, required: false } },
  responses: {
    200: jsonContent(UploadResultSchema, "Stored", { key: "uploads/report.pdf", uploaded: true }),
    ...errorResponses(
      [403, "INVALID_INPUT"],
      [408, "INVALID_INPUT"],
      [413, "INVALID_INPUT"],
      "NOT_FOUND",
      "STORAGE_ERROR",
    ),
  },
});
