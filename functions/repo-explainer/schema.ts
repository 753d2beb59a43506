/**
 * The response schemas of `/digest` and of `/explain`'s token counts, loaded with the document
 * (operations.ts). The request's parameters are app.ts's DIGEST_QUERY.
 */
import { z } from "@hono/zod-openapi";
import { TOKENIZER } from "./tokens.ts";

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
