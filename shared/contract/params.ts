/**
 * Query and path parameters: how each is read and checked, and what the document says of it,
 * in one definition and without zod, so that a route's first request is answered without
 * evaluating a schema library. The route declarations of the OpenAPI document are made from
 * the same definitions (`paramsSchema`, shared/contract/validation.ts), whose validation calls
 * the `parse` below: one validator, whichever app shell serves the route.
 */
import type { Context } from "hono";
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
  /** Where it is read. */
  in: "query" | "path";
  /** Whether a request must carry it. */
  required: boolean;
  /** What it is, for the document. */
  description: string;
  /** An example value, for the document. */
  example?: string;
  /** The only values allowed, when it is an enumeration. */
  values?: readonly [string, ...string[]];
  /** The error a bad value gets. */
  code: ErrorCode;
  /** The message of that error. */
  message: string;
  /**
   * The value a request gives: `raw` is the parameter as sent (a string, an array of them when
   * a query parameter is repeated, undefined when absent). Throws the contract's error.
   */
  parse(raw: unknown): T;
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

/** An optional query parameter that is one of `values`; undefined when absent. */
export function enumParam<const V extends readonly [string, ...string[]]>(
  values: V,
  doc: { description: string; example?: V[number]; message: string },
): Param<V[number] | undefined> {
  return {
    in: "query",
    required: false,
    description: doc.description,
    example: doc.example,
    values,
    code: "INVALID_INPUT",
    message: doc.message,
    parse(raw) {
      if (raw === undefined) return undefined;
      if (typeof raw === "string" && values.includes(raw)) return raw;
      throw invalid(this);
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
    else {
      const all = c.req.queries(name);
      raw = all === undefined ? undefined : all.length === 1 ? all[0] : all;
    }
    out[name] = param.parse(raw);
  }
  return out as ParamValues<P>;
}
