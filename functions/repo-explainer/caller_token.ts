/**
 * A caller's own GitHub token, from the request's `Authorization` header: it reads that
 * caller's private repositories for that request only. It goes to the GitHub API and nowhere
 * else (not to the archive download host, not to the model, not into a log line, not into any
 * cache), and an answer computed with it is marked `Cache-Control: private, no-store`.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import type { GithubConfig } from "./github_config.ts";

/** GitHub tokens: `ghp_…`, `github_pat_…`, `gho_…`, classic 40-hex (printable, no spaces). */
const TOKEN_PATTERN = /^[A-Za-z0-9_\-.~+/=]{1,512}$/;

/** The message of a malformed `Authorization` header. */
export const BAD_AUTHORIZATION = "Authorization must be 'Bearer <GitHub token>'";

/**
 * The token of `Authorization: Bearer <token>` (or GitHub's `token <token>`); undefined when
 * the header is absent; 400 INVALID_INPUT when it is there but malformed.
 */
export function callerToken(header: string | undefined): string | undefined {
  if (header === undefined || header.trim() === "") return undefined;
  const m = header.trim().match(/^(?:bearer|token)\s+(\S+)$/i);
  if (!m || !TOKEN_PATTERN.test(m[1])) throw new ApiError("INVALID_INPUT", BAD_AUTHORIZATION);
  return m[1];
}

/** The API configuration of one request: the caller's token in place of `GITHUB_TOKEN`. */
export function requestGithub(config: GithubConfig, token: string | undefined): GithubConfig {
  return token === undefined ? config : { ...config, token };
}
