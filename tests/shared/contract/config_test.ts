import assert from "node:assert/strict";
import {
  ConfigError,
  DEPLOYMENT_GLOBAL,
  DEPLOYMENT_PRELUDE,
  Env,
  isDeploymentBundle,
  processEnv,
} from "../../../shared/contract/config.ts";

Deno.test("Env readers parse and default", () => {
  const env = new Env({ A: "12", B: "yes", C: "https://x.test/", D: "  " });
  assert.equal(env.int("A", 1), 12);
  assert.equal(env.int("MISSING", 7), 7);
  assert.equal(env.bool("B", false), true);
  assert.equal(env.url("C"), "https://x.test");
  assert.equal(env.string("D"), undefined, "blank counts as unset");
});

Deno.test("a malformed value throws one line naming the variable", () => {
  const env = new Env({ N: "12abc", F: "maybe", U: "not a url", S: "ftp://x", P: "only-one" });
  const cases: [() => unknown, string][] = [
    [() => env.int("N", 1), "N"],
    [() => env.int("N", 1, 0, 5), "N"],
    [() => env.bool("F", false), "F"],
    [() => env.url("U"), "U"],
    [() => env.url("S"), "S"],
    [() => env.pair("P", "Q"), "Q"],
  ];
  for (const [read, name] of cases) {
    assert.throws(read, (err: Error) => {
      assert.ok(err instanceof ConfigError);
      assert.ok(err.message.startsWith(name + " "), err.message);
      assert.ok(!err.message.includes("\n"));
      return true;
    });
  }
  assert.throws(() => new Env({ X: "99" }).int("X", 1, 0, 10), ConfigError);
});

Deno.test("a deployment bundle is told by the prelude its build writes first", () => {
  assert.equal(isDeploymentBundle(), false, "tests are not a deployment");
  assert.equal(new Env({}).deployment, false);
  const global = globalThis as Record<string, unknown>;
  try {
    new Function(DEPLOYMENT_PRELUDE)();
    assert.equal(isDeploymentBundle(), true);
    assert.equal(processEnv().deployment, true);
  } finally {
    delete global[DEPLOYMENT_GLOBAL];
  }
});
