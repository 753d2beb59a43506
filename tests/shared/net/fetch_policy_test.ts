/** shared/net/fetch_policy.ts: the outbound fetch policy from the environment. */
import assert from "node:assert/strict";
import { ConfigError, Env } from "../../../shared/contract/config.ts";
import { DEFAULT_FETCH_POLICY, fetchPolicyFromEnv } from "../../../shared/net/fetch_policy.ts";

Deno.test("fetch policy from the environment", () => {
  const policy = fetchPolicyFromEnv(
    new Env({ ALLOW_PRIVATE_NETWORKS: "true", FETCH_TIMEOUT_MS: "2500", FETCH_MAX_BYTES: "4096" }),
  );
  assert.deepEqual(policy, { allowPrivate: true, devMode: false, timeoutMs: 2500, maxBytes: 4096 });
  assert.deepEqual(fetchPolicyFromEnv(new Env({})), { ...DEFAULT_FETCH_POLICY, devMode: false });
  assert.equal(fetchPolicyFromEnv(new Env({ DEV_MODE: "true" })).devMode, true);
  assert.throws(() => fetchPolicyFromEnv(new Env({ DEV_MODE: "maybe" })), ConfigError);
  assert.throws(() => fetchPolicyFromEnv(new Env({ FETCH_TIMEOUT_MS: "soon" })), ConfigError);
});
