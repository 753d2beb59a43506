/** repo-explainer's entrypoint: a malformed setting stops start-up with one line naming it. */
import { assertConfigError } from "../support/entrypoint.ts";

Deno.test("repo-explainer main: a malformed setting is one config-error line and exit code 1", async () => {
  await Promise.all([
    assertConfigError(
      "repo-explainer",
      { AI_TIMEOUT_MS: "0.5" },
      "AI_TIMEOUT_MS must be an integer",
    ),
    assertConfigError(
      "repo-explainer",
      { GITHUB_API_URL: "api" },
      "GITHUB_API_URL must be an absolute URL",
    ),
    assertConfigError(
      "repo-explainer",
      { FETCH_TIMEOUT_MS: "-1" },
      "FETCH_TIMEOUT_MS must be an integer",
    ),
  ]);
});
