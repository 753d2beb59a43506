/**
 * The inputs of object-storage's routes, checked without zod (shared/contract/params.ts): the
 * `key`, `public`, `prefix`, `limit`, `cursor` query parameters, the upload's Content-Type
 * header and the fields of a signed link, each with the contract's exact messages; and the
 * constants the document (operations.ts) shares with them.
 */
import { isValidKey, isValidPrefix, MAX_KEY_BYTES } from "../../shared/bindings/bucket/mod.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { MESSAGES, type Param, stringParam } from "../../shared/contract/params.ts";

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

/** What the document says of a key. */
export const KEY_DESCRIPTION =
  `Object key: 1-${MAX_KEY_BYTES} bytes of UTF-8, \`/\`-separated segments; ` +
  "no control characters, backslash, leading `/`, empty, `.` or `..` segment.";

/** A media type such as `image/png` or `text/plain; charset=utf-8`, printable ASCII only. */
export const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+(\s*;[\x20-\x7e]*)?$/;

/** The most characters of a Content-Type. */
export const MAX_CONTENT_TYPE = 255;

/**
 * The required `key` query parameter: absent or empty is `missing` (with `code`; null: the
 * code-less body of `PUT /object`), repeated or not a valid key is "Invalid key".
 */
function keyParam(missing: string, code: "INVALID_INPUT" | null): Param<string> {
  return {
    in: "query",
    required: true,
    schema: { minLength: 1 },
    description: KEY_DESCRIPTION,
    example: "photos/cat.jpg",
    code: "INVALID_INPUT",
    message: OBJECT_MESSAGES.invalidKey,
    parse(raw) {
      if (raw === undefined || raw === "") throw new ApiError(code, missing);
      if (typeof raw !== "string" || !isValidKey(raw)) {
        throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidKey);
      }
      return raw;
    },
  };
}

/** `public`: "true" selects the public bucket. */
const PUBLIC_PARAM = stringParam({
  description: "`true` selects the public bucket; anything else, or absent, the private one",
  example: "true",
});

/** `PUT /object`'s parameters. */
export const UPLOAD_PARAMS = {
  key: keyParam(MESSAGES.missingKey, null),
  public: PUBLIC_PARAM,
  "content-type": {
    in: "header",
    required: false,
    schema: { maxLength: MAX_CONTENT_TYPE },
    pattern: MEDIA_TYPE.source,
    description: "Recorded as the object's content type (default application/octet-stream)",
    example: "image/png",
    code: "INVALID_INPUT",
    message: OBJECT_MESSAGES.invalidContentType,
    parse(raw) {
      if (raw === undefined) return undefined;
      if (typeof raw === "string" && raw.length <= MAX_CONTENT_TYPE && MEDIA_TYPE.test(raw)) {
        return raw;
      }
      throw new ApiError(this.code, this.message);
    },
  } satisfies Param<string | undefined>,
};

/** `GET`/`HEAD`/`DELETE /object`'s parameters. */
export const OBJECT_PARAMS = {
  key: keyParam(OBJECT_MESSAGES.keyRequired, "INVALID_INPUT"),
  public: PUBLIC_PARAM,
};

/** Digits only, as `limit` is written. */
const LIMIT_DIGITS = "^\\d{1,4}$";

/** `GET /objects`' parameters. */
export const LIST_PARAMS = {
  public: PUBLIC_PARAM,
  prefix: {
    ...stringParam({ description: "Only keys starting with this", example: "photos/" }),
    parse(raw: unknown): string | undefined {
      const prefix = stringParam().parse(raw);
      if (prefix !== undefined && !isValidPrefix(prefix)) {
        throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidPrefix);
      }
      return prefix;
    },
  },
  limit: {
    ...stringParam({
      description: `Page size, 1-${LIST_LIMIT.max} (default ${LIST_LIMIT.default})`,
      example: "100",
    }),
    pattern: LIMIT_DIGITS,
    parse(raw: unknown): number | undefined {
      const text = stringParam().parse(raw);
      if (text === undefined) return undefined;
      const n = new RegExp(LIMIT_DIGITS).test(text) ? Number(text) : NaN;
      if (!(n >= 1 && n <= LIST_LIMIT.max)) {
        throw new ApiError("INVALID_INPUT", OBJECT_MESSAGES.invalidLimit);
      }
      return n;
    },
  },
  cursor: stringParam({ description: "The `cursor` of the previous page" }),
};

/** The query of a signed link: its fields are checked by the signature, not here. */
export const SIGNED_PARAMS = {
  key: stringParam(),
  public: stringParam(),
  expires: stringParam({ description: "Unix time the link expires" }),
  maxBytes: stringParam(),
  contentType: stringParam(),
  sig: stringParam({ description: "HMAC-SHA256 of every field and the method, base64url" }),
};

/** `GET /public/{key}`'s parameter: the key is read from the raw path (app.ts). */
export const PUBLIC_PATH_PARAMS = {
  key: {
    in: "path",
    required: true,
    description: "The key, each segment percent-encoded",
    example: "photos/cat.jpg", // the key of PUT /object's example, so /docs' try-it finds it
    code: "INVALID_INPUT",
    message: OBJECT_MESSAGES.invalidKey,
    parse(raw) {
      // The router gives a path parameter only when it has one; an MCP call may not.
      if (typeof raw !== "string" || raw === "") throw new ApiError(this.code, this.message);
      return raw;
    },
  } satisfies Param<string>,
};

/** The security scheme of `POST /object/sign`: `OBJECT_ADMIN_TOKEN` as a bearer token. */
export const ADMIN_TOKEN_SCHEME = "adminToken";
