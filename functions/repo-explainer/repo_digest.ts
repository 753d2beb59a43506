/**
 * `/digest` and `/explain`'s token counts: the archive read, filtered, counted and laid out.
 * Loaded on first use with the tar reader, picomatch and the tokenizer behind it.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import { pathFilter } from "./file_rules.ts";
import type { ReadLimits } from "./github_api.ts";
import type { GithubConfig } from "./github_config.ts";
import { readArchiveOf, readRepoFiles } from "./repo_files.ts";
import { repoText, section } from "./repo_text.ts";
import { tokenCounter, type TokenReport, tokenReport } from "./tokens.ts";

/** What `/digest` asked for. */
export interface DigestRequest {
  ref: string | null;
  include: string[];
  exclude: string[];
  maxTokens: number;
  limits: ReadLimits;
  tokenBudgetMs: number;
}

/** The answer of `/digest` (DigestResultSchema). */
export async function repoDigest(
  github: GithubConfig,
  target: { owner: string; repo: string },
  req: DigestRequest,
) {
  const filter = pathFilter(req.include, req.exclude);
  const read = await readRepoFiles(github, target, req.ref, filter, req.limits);
  const counter = await tokenCounter(req.tokenBudgetMs);
  const text = await repoText(
    { repo: read.fullName, ref: read.ref, commit: read.contents.commit },
    read.contents,
    counter,
    req.maxTokens,
  );
  return {
    repo: read.fullName,
    ref: read.ref,
    commit: read.contents.commit,
    maxTokens: req.maxTokens,
    content: text.content,
    tokens: text.tokens,
    omitted: text.omitted,
    truncated: read.contents.truncated,
  };
}

/**
 * `/explain`'s token counts: each file a default `/digest` would send, as its section there
 * weighs. Null when the archive cannot be read (the explanation does not depend on it).
 */
export async function explainTokens(
  github: GithubConfig,
  target: { owner: string; repo: string; ref: string | null },
  limits: ReadLimits,
  budgetMs: number,
): Promise<TokenReport | null> {
  let archive;
  try {
    archive = await readArchiveOf(github, target, pathFilter([], []), limits);
  } catch (err) {
    if (err instanceof ApiError) return null;
    throw err;
  }
  if (!archive) return null;
  const counter = await tokenCounter(budgetMs);
  const files = [];
  for (const f of archive.files) {
    files.push({ path: f.path, tokens: await counter.count(section(f.path, f.text)) });
  }
  return tokenReport(files, counter.exact);
}
