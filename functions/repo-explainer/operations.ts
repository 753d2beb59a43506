/**
 * What the OpenAPI document says of repo-explainer's routes beyond their declarations in
 * app.ts: summaries, descriptions, the token header and the response schemas (zod), loaded with
 * the document (shared/contract/light_app.ts), never by an `/explain` or `/digest` request.
 */
import { z } from "@hono/zod-openapi";
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { DIGEST_EXAMPLE, EXPLAIN_EXAMPLE } from "./openapi_example.ts";
import { DigestResultSchema, TokenReportSchema } from "./schema.ts";

/** A caller's GitHub token (private repositories), used for this request only. */
const AuthHeader = z.object({
  authorization: z.string().optional().openapi({
    param: { name: "authorization", in: "header" },
    description: "`Bearer <GitHub token>`: reads private repositories the token can see; " +
      "used for this request only, never stored or logged",
  }),
});

const RunSchema = z.object({
  command: z.string().openapi({ example: "npm run dev" }),
  runs: z.string().nullable().openapi({ description: "What it runs, when the manifest says" }),
});

const StackSchema = z.object({
  file: z.string().openapi({ example: "package.json" }),
  ecosystem: z.string().openapi({
    description: "npm, deno, cargo, go, python, composer, bundler, make",
  }),
  language: z.string().nullable(),
  name: z.string().nullable(),
  version: z.string().nullable(),
  dependencies: z.array(z.string()),
  devDependencies: z.array(z.string()),
});

/** The offline digest part of `/explain`'s answer. */
export const DigestSchema = z.object({
  about: z.string().nullable().openapi({
    description: "The description, else the README's first real paragraph",
  }),
  topics: z.array(z.string()),
  languages: z.array(z.string()).openapi({
    description: "Primary language first, then those the manifests and top-level files imply",
  }),
  stack: z.array(StackSchema).openapi({ description: "Each manifest read" }),
  entryPoints: z.array(z.string()),
  run: z.array(RunSchema).openapi({ description: "Install, run, test, build commands" }),
  readmeIntro: z.string().nullable(),
  tree: z.array(z.string()).openapi({ description: "Top-level entries (at most 50)" }),
}).openapi("ExplainDigest", {
  description: "Built from the GitHub API's answers alone, without a model",
});

/** The answer of `GET /explain`. */
export const ExplainSchema = z.object({
  repo: z.string().openapi({
    description: "`owner/name` as GitHub spells it",
    example: "denoland/deno",
  }),
  description: z.string().nullable(),
  language: z.string().nullable().openapi({ description: "Primary language" }),
  stars: z.number().int(),
  topics: z.array(z.string()),
  license: z.string().nullable().openapi({ description: "SPDX id (or name) of the licence" }),
  defaultBranch: z.string(),
  files: z.array(z.string()).openapi({ description: "Top-level entries; directories end in /" }),
  summary: z.string().openapi({
    description: "What the project is, its layout, how to start: the model's words, or without " +
      'a model the digest as text, headed "Digest (no model)"',
  }),
  digest: DigestSchema,
  tokens: TokenReportSchema.nullable().openapi({
    description: "Tokens of the files a default /digest would send (per file, per directory, " +
      "in total); null when the archive could not be read",
  }),
}).openapi("ExplainResult");

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  explainRepository: {
    summary: "Explain a GitHub repository",
    description: "Reads the repository's metadata, README, top-level files and main manifest " +
      "through the GitHub API and asks the model to explain it (at most 6000 characters of " +
      "gathered text). Header `X-AI-Model` names the model. Without a configured model the " +
      "digest answers (built from the API's answers alone) and `X-AI-Model` says `digest (no " +
      "model)`; `digest` is part of every answer.",
    request: { headers: AuthHeader },
    responses: {
      200: jsonContent(
        ExplainSchema,
        "The repository's facts and its explanation",
        EXPLAIN_EXAMPLE,
      ),
      ...errorResponses("INVALID_URL", "INVALID_INPUT", "NOT_FOUND", "FETCH_OR_AI_ERROR"),
    },
  },
  getRepositoryDigest: {
    summary: "A GitHub repository as one text for a model",
    description: "Reads the repository's tarball at `ref` through the GitHub API and answers " +
      "its directory tree then each text file, with token counts (o200k_base). Binaries, " +
      "lockfiles, minified bundles and vendored folders are left out; `include` and `exclude` " +
      "globs narrow it; past `maxTokens` files are dropped largest first. `omitted` lists every " +
      "file left out and why.",
    request: { headers: AuthHeader },
    responses: {
      200: jsonContent(
        DigestResultSchema,
        "The repository as text, with its token counts",
        DIGEST_EXAMPLE,
      ),
      ...errorResponses("INVALID_URL", "INVALID_INPUT", "NOT_FOUND", "FETCH_OR_AI_ERROR"),
    },
  },
};
