/**
 * The request and response schemas of `/digest` and of `/explain`'s token counts, exported so
 * other front ends (an MCP tool) validate and describe the same inputs.
 */
import { z } from "@hono/zod-openapi";
import { UrlQuery } from "../../shared/contract/validation.ts";
import { MAX_GLOBS, validGlob } from "./file_rules.ts";
import { REF_PATTERN } from "./repo_files.ts";
import { TOKENIZER } from "./tokens.ts";

/** `maxTokens` when the caller gives none. */
export const DEFAULT_MAX_TOKENS = 100_000;

/** The largest `maxTokens` a caller may ask for. */
export const MAX_MAX_TOKENS = 2_000_000;

/** Token counts: per file, per directory, in total. */
export const TokenReportSchema = z.object({
  tokenizer: z.string().openapi({ example: TOKENIZER, description: "The encoding counted in" }),
  exact: z.boolean().openapi({
    description: "False when the time budget ran out and the rest was estimated (4 chars/token)",
  }),
  total: z.number().int(),
  files: z.array(z.object({ path: z.string(), tokens: z.number().int() })),
  directories: z.array(z.object({ path: z.string(), tokens: z.number().int() })).openapi({
    description: "Every folder (ending in /) with the tokens of all it holds",
  }),
}).openapi("TokenReport");

/** A glob list: the parameter repeated (`include=src/**&include=*.md`). */
const GlobList = z.preprocess(
  (v) => (v === undefined ? [] : Array.isArray(v) ? v : [v]),
  z.array(z.string().refine(validGlob, "Invalid glob")).max(MAX_GLOBS),
);

/** The query of `GET /digest`. */
export const DigestQuery = UrlQuery.extend({
  url: UrlQuery.shape.url.openapi({
    param: { name: "url", in: "query", required: true },
    description: "GitHub repository URL, e.g. https://github.com/owner/repo",
    example: "https://github.com/denoland/deno",
  }),
  ref: z.string().regex(REF_PATTERN).optional().openapi({
    param: { name: "ref", in: "query" },
    description: "Branch, tag or commit (default: the URL's tree/<ref>, else the default branch)",
  }),
  include: GlobList.openapi({
    param: { name: "include", in: "query", style: "form", explode: true },
    description: `Globs a file must match one of (repeat the parameter, at most ${MAX_GLOBS})`,
  }),
  exclude: GlobList.openapi({
    param: { name: "exclude", in: "query", style: "form", explode: true },
    description: "Globs of files to leave out; a glob without / matches a name at any depth",
  }),
  maxTokens: z.coerce.number().int().min(1).max(MAX_MAX_TOKENS).default(DEFAULT_MAX_TOKENS)
    .openapi({
      param: { name: "maxTokens", in: "query" },
      description: `Token budget of content (default ${DEFAULT_MAX_TOKENS}, at most ` +
        `${MAX_MAX_TOKENS}); past it files are dropped largest first`,
    }),
});

/** A file left out of a digest. */
export const OmittedSchema = z.object({
  path: z.string(),
  reason: z.enum([
    "excluded",
    "not-included",
    "generated",
    "vendored",
    "binary",
    "too-large",
    "max-tokens",
    "limit",
  ]),
  bytes: z.number().int(),
  tokens: z.number().int().optional().openapi({ description: "For max-tokens: what it weighed" }),
});

/** The answer of `GET /digest`. */
export const DigestResultSchema = z.object({
  repo: z.string().openapi({ example: "denoland/deno" }),
  ref: z.string().openapi({ description: "The ref read" }),
  commit: z.string().nullable().openapi({ description: "The commit the archive is of" }),
  maxTokens: z.number().int(),
  content: z.string().openapi({ description: "Header, directory tree, then each file" }),
  tokens: TokenReportSchema,
  omitted: z.array(OmittedSchema),
  truncated: z.string().nullable().openapi({
    description: "Why the archive was not read to its end (a size bound), else null",
  }),
}).openapi("RepoDigest");
