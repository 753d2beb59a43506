/**
 * The repo-explainer experiment's app: `GET /explain?url=` explains a GitHub repository,
 * `GET /digest?url=` gives it as one text for a model.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  type AI,
  EXTRACTIVE_MODEL,
  generateSummary,
  NO_CONTENT_SUMMARY,
} from "../../shared/bindings/ai/mod.ts";
import {
  createExperimentApp,
  type ExperimentApp,
  type ExperimentOptions,
} from "../../shared/contract/app.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { MODEL_HEADER } from "../../shared/contract/middleware.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { UrlQuery } from "../../shared/contract/validation.ts";
import { callerToken, requestGithub } from "./caller_token.ts";
import { readRepository } from "./github_api.ts";
import type { GithubConfig } from "./github_config.ts";
import { parseGithubRepoUrl } from "./github_url.ts";
import { explainMessages, explainUserMessage } from "./prompt.ts";
import { DIGEST_EXAMPLE, EXPLAIN_EXAMPLE } from "./openapi_example.ts";
import { ROOT } from "./root.ts";
import { DigestQuery, DigestResultSchema, TokenReportSchema } from "./schema.ts";

/** The digest (its Markdown, TOML and JSONC readers), loaded by the first `/explain`. */
const loadDigest = onFirstUse(() => import("./digest.ts"));

/** The archive reader, glob filters and tokenizer, loaded by the first request needing them. */
const loadFiles = onFirstUse(() => import("./repo_digest.ts"));

/** Time counting tokens may take on one request before the rest is estimated. */
export const TOKEN_BUDGET_MS = 3_000;

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Limits of outbound requests (`FETCH_TIMEOUT_MS`, `FETCH_MAX_BYTES` bound the API reads). */
  fetchPolicy: FetchPolicy;
  /** The text-generation model. */
  AI: AI;
  /** The GitHub REST API. */
  github: GithubConfig;
}

/** The response header naming the model that answered (absent when it was not called). */

/** The message of a URL that is valid but names no GitHub repository. */
export const NOT_A_REPO = "Not a GitHub repository URL";

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

const explainRoute = createRoute({
  method: "get",
  operationId: "explainRepository",
  path: "/explain",
  summary: "Explain a GitHub repository",
  description: "Reads the repository's metadata, README, top-level files and main manifest " +
    "through the GitHub API and asks the model to explain it (at most 6000 characters of " +
    "gathered text). Header `X-AI-Model` names the model. Without a configured model the " +
    "digest answers (built from the API's answers alone) and `X-AI-Model` says `digest (no " +
    "model)`; `digest` is part of every answer.",
  request: {
    headers: AuthHeader,
    query: UrlQuery.extend({
      url: UrlQuery.shape.url.openapi({
        param: { name: "url", in: "query", required: true },
        description: "GitHub repository URL, e.g. https://github.com/owner/repo",
        example: "https://github.com/denoland/deno",
      }),
    }),
  },
  responses: {
    200: jsonContent(ExplainSchema, "The repository's facts and its explanation", EXPLAIN_EXAMPLE),
    ...errorResponses("INVALID_URL", "INVALID_INPUT", "NOT_FOUND", "FETCH_OR_AI_ERROR"),
  },
});

const digestRoute = createRoute({
  method: "get",
  operationId: "getRepositoryDigest",
  path: "/digest",
  summary: "A GitHub repository as one text for a model",
  description: "Reads the repository's tarball at `ref` through the GitHub API and answers " +
    "its directory tree then each text file, with token counts (o200k_base). Binaries, " +
    "lockfiles, minified bundles and vendored folders are left out; `include` and `exclude` " +
    "globs narrow it; past `maxTokens` files are dropped largest first. `omitted` lists every " +
    "file left out and why.",
  request: { headers: AuthHeader, query: DigestQuery },
  responses: {
    200: jsonContent(
      DigestResultSchema,
      "The repository as text, with its token counts",
      DIGEST_EXAMPLE,
    ),
    ...errorResponses("INVALID_URL", "INVALID_INPUT", "NOT_FOUND", "FETCH_OR_AI_ERROR"),
  },
});

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "explain_repository",
    operationId: "explainRepository",
    description: "Explain a public GitHub repository: read its metadata, README, top-level files " +
      "and manifests through the GitHub API and return the facts (description, primary " +
      "language, stars, topics, licence, default branch, files), a digest (stack, entry " +
      "points, run commands) and a summary of what the project is and how to start with " +
      "it. Takes the repository's URL, e.g. https://github.com/owner/repo.",
  },
  {
    name: "digest_repository",
    operationId: "getRepositoryDigest",
    description: "Read a GitHub repository at a ref (branch, tag or commit; default branch by " +
      "default) and return it as one text for a model: a header, the directory tree, then " +
      "each text file, with token counts (o200k_base) per file and folder. Binaries, " +
      "lockfiles, minified bundles and vendored folders are left out and listed in `omitted`; " +
      "narrow it with `include`/`exclude` globs (lists) and cap it with `maxTokens`. Use it to " +
      "read a project's code; use explain_repository for an overview.",
  },
];

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const app = createExperimentApp(ROOT, options);
  app.openapi(explainRoute, async (c) => {
    const target = parseGithubRepoUrl(c.req.valid("query").url);
    if (!target) throw new ApiError("INVALID_URL", NOT_A_REPO);
    const token = callerToken(c.req.header("authorization"));
    markPrivate(c, token);
    const github = requestGithub(bindings.github, token);
    const files = loadFiles();
    const [repo, tokens] = await Promise.all([
      readRepository(github, target, bindings.fetchPolicy),
      files.then((f) => f.explainTokens(github, target, bindings.fetchPolicy, TOKEN_BUDGET_MS)),
    ]);
    const facts = {
      repo: repo.fullName,
      description: repo.description,
      language: repo.language,
      stars: repo.stars,
      topics: repo.topics,
      license: repo.license,
      defaultBranch: repo.defaultBranch,
      files: repo.files,
    };
    const answer = { ...facts, tokens };
    const { buildDigest, DIGEST_LABEL, digestText } = await loadDigest();
    const digest = buildDigest(repo);
    const message = explainUserMessage(repo);
    if (message === "") return c.json({ ...answer, summary: NO_CONTENT_SUMMARY, digest }, 200);
    if (bindings.AI.model === EXTRACTIVE_MODEL) {
      // No model configured: the digest answers, and says so, instead of an extract of raw lines.
      c.header(MODEL_HEADER, DIGEST_LABEL);
      return c.json({ ...answer, summary: digestText(repo.fullName, digest), digest }, 200);
    }
    const { summary, model } = await generateSummary(bindings.AI, explainMessages(message));
    c.header(MODEL_HEADER, model);
    return c.json({ ...answer, summary, digest }, 200);
  });

  app.openapi(digestRoute, async (c) => {
    const query = c.req.valid("query");
    const target = parseGithubRepoUrl(query.url);
    if (!target) throw new ApiError("INVALID_URL", NOT_A_REPO);
    const token = callerToken(c.req.header("authorization"));
    markPrivate(c, token);
    const { repoDigest } = await loadFiles();
    const result = await repoDigest(requestGithub(bindings.github, token), target, {
      ref: query.ref ?? target.ref,
      include: query.include,
      exclude: query.exclude,
      maxTokens: query.maxTokens,
      limits: bindings.fetchPolicy,
      tokenBudgetMs: TOKEN_BUDGET_MS,
    });
    return c.json(result, 200);
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}

/**
 * Answers depend on who asks once a token may be sent: shared caches key on `Authorization`,
 * and an answer computed with a caller's token is never stored by one.
 */
function markPrivate(c: { header(name: string, value: string): void }, token?: string): void {
  c.header("vary", "Authorization");
  if (token !== undefined) c.header("cache-control", "private, no-store");
}
