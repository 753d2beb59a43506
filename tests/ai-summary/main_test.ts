/** ai-summary's entrypoint: a malformed setting stops start-up with one line naming it. */
import { assertConfigError } from "../support/entrypoint.ts";

Deno.test("ai-summary main: a malformed setting is one config-error line and exit code 1", async () => {
  await Promise.all([
    assertConfigError("ai-summary", { AI_TIMEOUT_MS: "soon" }, "AI_TIMEOUT_MS must be an integer"),
    assertConfigError(
      "ai-summary",
      { AI_BASE_URL: "nowhere" },
      "AI_BASE_URL must be an absolute URL",
    ),
    assertConfigError(
      "ai-summary",
      { HF_TOKEN: "hf_x", AI_PROVIDER: "x" },
      "AI_PROVIDER must be one of",
    ),
  ]);
});
