/**
 * Where the GitHub API is, from the environment: apart from github_api.ts, whose manifest
 * parsers (jsonc-parser, smol-toml) a cold start would otherwise load for `GET /`.
 */
import type { Env } from "../../shared/contract/config.ts";

/** `GITHUB_API_URL` when unset. */
export const DEFAULT_GITHUB_API_URL = "https://api.github.com";

/** Where the API is and how to authenticate. */
export interface GithubConfig {
  /** Base URL of the REST API, no trailing slash. */
  apiUrl: string;
  /** `GITHUB_TOKEN`: sent as a Bearer token (higher rate limits, private repositories). */
  token?: string;
}

/** Reads `GITHUB_API_URL` and `GITHUB_TOKEN`; a malformed URL is a ConfigError. */
export function githubConfigFromEnv(env: Env): GithubConfig {
  return {
    apiUrl: env.url("GITHUB_API_URL") ?? DEFAULT_GITHUB_API_URL,
    token: env.string("GITHUB_TOKEN"),
  };
}
