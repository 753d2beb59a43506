/** The caller's token header: parsed strictly, used in place of GITHUB_TOKEN for one request. */
import assert from "node:assert/strict";
import { callerToken, requestGithub } from "../../functions/repo-explainer/caller_token.ts";

Deno.test("caller token: Bearer and token schemes, absent is undefined", () => {
  assert.equal(callerToken(undefined), undefined);
  assert.equal(callerToken(""), undefined);
  assert.equal(callerToken("Bearer ghp_abc123"), "ghp_abc123");
  assert.equal(callerToken("token github_pat_11AB"), "github_pat_11AB");
});

Deno.test("caller token: anything else is 400 INVALID_INPUT", () => {
  for (const h of ["Basic dXNlcjpwYXNz", "Bearer", "Bearer a b", "Bearer a\u00e9", "ghp_abc"]) {
    assert.throws(
      () => callerToken(h),
      (e: Error & { code?: string }) => e.code === "INVALID_INPUT",
      h,
    );
  }
});

Deno.test("caller token: replaces the configured token, leaves the config untouched", () => {
  const config = { apiUrl: "https://api.github.com", token: "server" };
  assert.equal(requestGithub(config, "caller").token, "caller");
  assert.equal(requestGithub(config, undefined).token, "server");
  assert.equal(config.token, "server");
});
