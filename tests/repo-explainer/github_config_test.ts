/** functions/repo-explainer/github_config.ts: where the GitHub API is, from the environment. */
import assert from "node:assert/strict";
import { githubConfigFromEnv } from "../../functions/repo-explainer/github_config.ts";
import { ConfigError, Env } from "../../shared/contract/config.ts";

Deno.test("githubConfigFromEnv: the public API by default; a malformed URL is a ConfigError", () => {
  assert.deepEqual(githubConfigFromEnv(new Env({})), {
    apiUrl: "https://api.github.com",
    token: undefined,
  });
  assert.deepEqual(
    githubConfigFromEnv(new Env({ GITHUB_API_URL: "https://ghe.test/api/v3/", GITHUB_TOKEN: "t" })),
    { apiUrl: "https://ghe.test/api/v3", token: "t" },
  );
  assert.throws(
    () => githubConfigFromEnv(new Env({ GITHUB_API_URL: "api.github.com" })),
    (err: unknown) => err instanceof ConfigError && /^GITHUB_API_URL/.test(err.message),
  );
});
