/**
 * A request's inputs, checked without loading zod, so that a route's first request is answered
 * without evaluating a schema library:
 * - query and path parameters: how each is read and checked, and what the document says of it,
 *   in one definition. The route declarations of the OpenAPI document are made from the same
 *   definitions (`paramsSchema`, shared/contract/validation.ts), whose validation calls the
 *   `parse` below: one validator, whichever app shell serves the route;
 * - a JSON body: read with a cap, then checked by the route's zod schema (loaded by the route
 *   when it needs it), its first issue made the contract's error.
 */
import type { Context } from "hono";
import type { z } from "@hono/zod-openapi";
import { readBodyLimited } from "./body_limit.ts";
import { ApiError, type ErrorCode } from "./errors.ts";
import { parseUrlInput } from "./url_rule.ts";

/** The contract's validation messages. */
export const MESSAGES = {
  url: "Missing or invalid url",
  urlInBody: "Missing or invalid url in body",
  missingKey: "Missing key",
  invalidJson: "Invalid JSON",
} as const;

/** A query or path parameter of a route. */
export interface Param<T> {
  /** Where it is read (a header by its name, case-insensitively). */
  in: "query" | "path" | "header";
  /** Whether a request must carry it. */
  required: boolean;
  /** What it is, for the document. */
  description: string;
  /** An example value, for the document. */
  example?: string;
  /** The only values allowed, when it is an enumeration. */
  values?: readonly [string, ...string[]];
  /** The pattern a value must match, for the document (parse checks it). */
  pattern?: string;
  /** The value of an absent optional parameter, for the document (parse gives it). */
  default?: string | number;
  /** The error a bad value gets. */
  code: ErrorCode;
  /** The message of that error. */
  message: string;
  /**
   * The value a request gives: `raw` is the parameter as sent (a string, an array of them when
   * a query parameter is repeated, undefined when absent). Throws the contract's error.
   */
  parse(raw: unknown): T;
  /**
   * What the document says of a parameter that is not a plain string (its type, bounds, a
   * list's items); the value `parse` reads is still the raw query value (a list: repeated).
   */
  schema?: ParamSchema;
}

/** A route's parameters, by name, in the order they are checked. */
// deno-lint-ignore no-explicit-any
export type Params = Record<string, Param<any>>;

/** What a route's handler gets from its parameters. */
export type ParamValues<P extends Params> = { [K in keyof P]: ReturnType<P[K]["parse"]> };

/** The error of `param`. */
function invalid(param: Param<unknown>): ApiError {
  return new ApiError(param.code, param.message);
}

/** The required `url` query parameter under the URL input rule; its normalised string form. */
export const URL_PARAM: Param<string> = {
  in: "query",
  required: true,
  description: "Absolute http(s) URL of the page",
  example: "https://example.com/",
  code: "INVALID_URL",
  message: MESSAGES.url,
  parse(raw) {
    const url = parseUrlInput(raw);
    if (url === null) throw invalid(this);
    return url;
  },
};

/** `?url=` of the fetch-and-parse, summary and screenshot routes. */
export const URL_QUERY = { url: URL_PARAM };

/**
 * An optional query parameter that is one of `values`; when absent, `doc.default` (undefined
 * without one).
 */
export function enumParam<
  const V extends readonly [string, ...string[]],
  D extends V[number] | undefined = undefined,
>(
  values: V,
  doc: { description: string; example?: V[number]; message: string; default?: D },
): Param<D extends string ? V[number] : V[number] | undefined> {
  return {
    in: "query",
    required: false,
    description: doc.description,
    ...(doc.example === undefined ? {} : { example: doc.example }),
    ...(doc.default === undefined ? {} : { default: doc.default }),
    values,
    code: "INVALID_INPUT",
    message: doc.message,
    parse(raw) {
      if (raw === undefined) return doc.default as D extends string ? V[number] : undefined;
      if (typeof raw === "string" && values.includes(raw)) return raw;
      throw invalid(this);
    },
  };
}

/** Digits only: `Number()` alone would also take `1e3`, `0x100` and ` 256`. */
const DECIMAL = "^\\d{1,6}$";

/**
 * An optional query integer from `min` to `max`, written in decimal digits; `doc.default`
 * when absent. Anything else is INVALID_INPUT with `doc.message`.
 */
export function decimalParam(
  min: number,
  max: number,
  doc: { description: string; message: string; default: number },
): Param<number> {
  const digits = new RegExp(DECIMAL);
  return {
    in: "query",
    required: false,
    description: doc.description,
    pattern: DECIMAL,
    default: doc.default,
    code: "INVALID_INPUT",
    message: doc.message,
    parse(raw) {
      if (raw === undefined) return doc.default;
      const n = typeof raw === "string" && digits.test(raw) ? Number(raw) : NaN;
      if (!(n >= min && n <= max)) throw invalid(this);
      return n;
    },
  };
}

/**
 * Reads and checks a request's parameters, in their order: the first bad one throws its
 * contract error (a repeated query parameter is an array, which no parameter accepts).
 */
export function readParams<P extends Params>(c: Context, params: P): ParamValues<P> {
  const out: Record<string, unknown> = {};
  for (const [name, param] of Object.entries(params)) {
    let raw: unknown;
    if (param.in === "path") raw = c.req.param(name);
    else if (param.in === "header") raw = c.req.header(name);
    else {
      const all = c.req.queries(name);
      raw = all === undefined ? undefined : all.length === 1 ? all[0] : all;
    }
    out[name] = param.parse(raw);
  }
  return out as ParamValues<P>;
}

/**
 * The code each contract message carries (`null`: the code-less `/object` body). A schema
 * message not listed here is an INVALID_INPUT with that message.
 */
const CODE_OF_MESSAGE: Record<string, ErrorCode | null> = {
  [MESSAGES.url]: "INVALID_URL",
  [MESSAGES.urlInBody]: "INVALID_URL",
  [MESSAGES.missingKey]: null,
};

/** The error raised for the first issue of a failed zod validation. */
export function validationError(error: z.ZodError): ApiError {
  const issue = error.issues[0];
  // A parameter's own parse (paramsSchema) failed: its error as it is.
  const own = issue?.code === "custom" ? issue.params?.error : undefined;
  if (own instanceof ApiError) return own;
  const message = issue?.message ?? "Invalid input";
  const code = message in CODE_OF_MESSAGE ? CODE_OF_MESSAGE[message] : "INVALID_INPUT";
  return new ApiError(code, message);
}

/**
 * Reads a JSON body of at most `maxBytes` and validates it with `schema`: a body over the
 * cap is 413 INVALID_INPUT as soon as the count passes it (see body_limit.ts; chunked bodies
 * are never read whole first), one that is not JSON is 400 INVALID_INPUT "Invalid JSON",
 * whatever the Content-Type says (curl's `-d` sends form encoding by default).
 */
export async function readJsonBody<T extends z.ZodType>(
  c: Context,
  schema: T,
  maxBytes: number,
): Promise<z.output<T>> {
  const bytes = await readBodyLimited(c.req.raw, maxBytes);
  let json: unknown;
  try {
    json = JSON.parse(new TextDecoder().decode(bytes));
  } catch {
    throw new ApiError("INVALID_INPUT", MESSAGES.invalidJson);
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw validationError(parsed.error);
  return parsed.data;
}

/** The document schema keywords of a parameter that is not a plain string (see Param.schema). */
export type ParamSchema = {
  type?: "integer" | "number" | "boolean" | "array";
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  items?: { type: "string" };
  maxItems?: number;
};

/**
 * An optional query flag: `true` or `false` exactly (absent is false); anything else is
 * INVALID_INPUT with `doc.message`. Documented as a boolean.
 */
export function booleanParam(doc: { description: string; message: string }): Param<boolean> {
  return {
    in: "query",
    required: false,
    description: doc.description,
    schema: { type: "boolean" },
    code: "INVALID_INPUT",
    message: doc.message,
    parse(raw) {
      if (raw === undefined || raw === "false") return false;
      if (raw === "true") return true;
      throw invalid(this);
    },
  };
}

/**
 * An optional query number from `min` to `max` written as plain decimals (digits, and for a
 * non-integer one a fractional part): `Number()` alone would also take `1e3`, `0x400` and
 * ` 800 `. Absent is undefined; anything else is INVALID_INPUT with `doc.message`. Documented
 * as an integer or number with its bounds.
 */
export function rangeParam(
  min: number,
  max: number,
  doc: { integer: boolean; description: string; message: string },
): Param<number | undefined> {
  const decimal = doc.integer ? /^\d+$/ : /^\d+(\.\d+)?$/;
  return {
    in: "query",
    required: false,
    description: doc.description,
    schema: { type: doc.integer ? "integer" : "number", minimum: min, maximum: max },
    code: "INVALID_INPUT",
    message: doc.message,
    parse(raw) {
      if (raw === undefined) return undefined;
      const n = typeof raw === "string" && decimal.test(raw) ? Number(raw) : NaN;
      if (!(n >= min && n <= max)) throw invalid(this);
      return n;
    },
  };
}

/**
 * An optional query string matching `pattern`, with the wording of the first shell's zod
 * schema (`z.string().regex(pattern)`), which the contract kept: undefined when absent.
 */
export function patternStringParam(
  pattern: RegExp,
  doc: { description: string },
): Param<string | undefined> {
  return {
    in: "query",
    required: false,
    description: doc.description,
    pattern: pattern.source,
    code: "INVALID_INPUT",
    message: `Invalid string: must match pattern ${pattern}`,
    parse(raw) {
      if (raw === undefined) return undefined;
      if (typeof raw !== "string") {
        throw new ApiError("INVALID_INPUT", NOT_A_STRING);
      }
      if (!pattern.test(raw)) throw invalid(this);
      return raw;
    },
  };
}

/**
 * An optional list of query strings, the parameter repeated (`a=x&a=y`; absent is []): more
 * than `max` is INVALID_INPUT "Too big: expected array to have <=max items", then the first
 * one `valid` refuses is INVALID_INPUT with `doc.message` (the first shell's zod wording).
 */
export function stringListParam(
  max: number,
  valid: (value: string) => boolean,
  doc: { description: string; message: string },
): Param<string[]> {
  return {
    in: "query",
    required: false,
    description: doc.description,
    schema: { type: "array", items: { type: "string" }, maxItems: max },
    code: "INVALID_INPUT",
    message: doc.message,
    parse(raw) {
      const list = raw === undefined ? [] : Array.isArray(raw) ? raw : [raw];
      if (list.length > max) {
        throw new ApiError("INVALID_INPUT", `Too big: expected array to have <=${max} items`);
      }
      if (!list.every((v) => typeof v === "string" && valid(v))) throw invalid(this);
      return list;
    },
  };
}

/**
 * An optional query integer from `min` to `max` read as `Number()` reads it (`1e3`, ` 7 `
 * and `0x10` count; an empty value is 0), `doc.default` when absent: the first shell's
 * `z.coerce.number().int().min().max()`, whose messages the contract kept, each
 * INVALID_INPUT.
 */
export function coercedIntegerParam(
  min: number,
  max: number,
  doc: { description: string; default: number },
): Param<number> {
  return {
    in: "query",
    required: false,
    description: doc.description,
    schema: { type: "integer", minimum: min, maximum: max },
    default: doc.default,
    code: "INVALID_INPUT",
    message: `Too big: expected number to be <=${max}`,
    parse(raw) {
      if (raw === undefined) return doc.default;
      const n = Number(raw);
      const fail = (message: string) => new ApiError("INVALID_INPUT", message);
      if (!Number.isFinite(n)) throw fail(`Invalid input: expected number, received ${n}`);
      if (!Number.isInteger(n)) throw fail("Invalid input: expected int, received number");
      if (n > Number.MAX_SAFE_INTEGER) {
        throw fail(`Too big: expected int to be <=${Number.MAX_SAFE_INTEGER}`);
      }
      if (n < Number.MIN_SAFE_INTEGER) {
        throw fail(`Too small: expected int to be >=${Number.MIN_SAFE_INTEGER}`);
      }
      if (n < min) throw fail(`Too small: expected number to be >=${min}`);
      if (n > max) throw invalid(this);
      return n;
    },
  };
}

/** The message of a repeated query parameter that takes one string (zod's, as it was). */
export const NOT_A_STRING = "Invalid input: expected string, received array";

/**
 * An optional query parameter taken as written (undefined when absent); repeated, it is
 * INVALID_INPUT {@link NOT_A_STRING}. Its meaning is checked by the handler.
 */
export function stringParam(doc: { description?: string; example?: string } = {}): Param<
  string | undefined
> {
  return {
    in: "query",
    required: false,
    // Absent: the document says nothing of it (a signed link's fields).
    description: doc.description as string,
    ...(doc.example === undefined ? {} : { example: doc.example }),
    code: "INVALID_INPUT",
    message: NOT_A_STRING,
    parse(raw) {
      if (raw === undefined || typeof raw === "string") return raw;
      throw invalid(this);
    },
  };
}
