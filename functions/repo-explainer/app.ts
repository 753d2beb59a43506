/**
 * The repo-explainer experiment's app: `GET /explain?url=` explains a GitHub repository,
 * `GET /digest?url=` gives it as one text for a model.
 */
import {
  type AI,
  EXTRACTIVE_MODEL,
  generateSummary,
  NO_CONTENT_SUMMARY,
} from "../../shared/bindings/ai/mod.ts";
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { MODEL_HEADER } from "../../shared/contract/middleware.ts";
import {
  coercedIntegerParam,
  type Param,
  patternStringParam,
  stringListParam,
  URL_PARAM,
} from "../../shared/contract/params.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { callerToken, requestGithub } from "./caller_token.ts";
import { MAX_GLOBS, validGlob } from "./file_rules.ts";
import { readRepository } from "./github_api.ts";
import type { GithubConfig } from "./github_config.ts";
import { parseGithubRepoUrl, REF_PATTERN } from "./github_url.ts";
import { explainMessages, explainUserMessage } from "./prompt.ts";
import { ROOT } from "./root.ts";

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

/** The message of a URL that is valid but names no GitHub repository. */
export const NOT_A_REPO = "Not a GitHub repository URL";

/** `maxTokens` when the caller gives none. */
export const DEFAULT_MAX_TOKENS = 100_000;

/** The largest `maxTokens` a caller may ask for. */
export const MAX_MAX_TOKENS = 2_000_000;

/** `?url=` of a GitHub repository (the contract's URL rule; then it must name a repository). */
const REPO_URL: Param<string> = {
  ...URL_PARAM,
  description: "GitHub repository URL, e.g. https://github.com/owner/repo",
  example: "https://github.com/denoland/deno",
};

/** `/explain`'s query. */
export const EXPLAIN_QUERY = { url: REPO_URL };

/** `/digest`'s query: the repository, the ref read, glob filters and the token budget. */
export const DIGEST_QUERY = {
  url: REPO_URL,
  ref: patternStringParam(REF_PATTERN, {
    description: "Branch, tag or commit (default: the URL's tree/<ref>, else the default branch)",
  }),
  include: stringListParam(MAX_GLOBS, validGlob, {
    description: `Globs a file must match one of (repeat the parameter, at most ${MAX_GLOBS})`,
    message: "Invalid glob",
  }),
  exclude: stringListParam(MAX_GLOBS, validGlob, {
    description: "Globs of files to leave out; a glob without / matches a name at any depth",
    message: "Invalid glob",
  }),
  maxTokens: coercedIntegerParam(1, MAX_MAX_TOKENS, {
    description: `Token budget of content (default ${DEFAULT_MAX_TOKENS}, at most ` +
      `${MAX_MAX_TOKENS}); past it files are dropped largest first`,
    default: DEFAULT_MAX_TOKENS,
  }),
};

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
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  // Its response schemas (zod) load with the document, not with the first /explain.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  const explainRoute = {
    method: "get",
    path: "/explain",
    operationId: "explainRepository",
    params: EXPLAIN_QUERY,
  } as const;
  addRoute(app, explainRoute, async (c, { url }) => {
    const target = parseGithubRepoUrl(url);
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

  const digestRoute = {
    method: "get",
    path: "/digest",
    operationId: "getRepositoryDigest",
    params: DIGEST_QUERY,
  } as const;
  addRoute(app, digestRoute, async (c, query) => {
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
