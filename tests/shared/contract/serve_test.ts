import assert from "node:assert/strict";
import { ConfigError, Env } from "../../../shared/contract/config.ts";
import {
  DEPLOYED_HOST,
  DEV_HOST,
  isLoopbackHost,
  listenHostFromEnv,
} from "../../../shared/contract/serve.ts";
import { assertConfigError, startEntrypoint } from "../../support/entrypoint.ts";

Deno.test("HOST defaults to loopback in dev and to every interface elsewhere", () => {
  assert.equal(DEV_HOST, "127.0.0.1");
  assert.equal(listenHostFromEnv(new Env({ DEV_MODE: "true" })), "127.0.0.1");
  assert.equal(listenHostFromEnv(new Env({})), DEPLOYED_HOST);
  assert.equal(listenHostFromEnv(new Env({ HOST: "::1" })), "::1");
  assert.equal(listenHostFromEnv(new Env({ HOST: "[::1]" })), "::1", "brackets dropped");
  assert.equal(listenHostFromEnv(new Env({ DEV_MODE: "true", HOST: "0.0.0.0" })), "0.0.0.0");
});

Deno.test("loopback hosts", () => {
  for (const host of ["127.0.0.1", "127.1.2.3", "::1", "[::1]", "localhost", "LOCALHOST"]) {
    assert.ok(isLoopbackHost(host), host);
  }
  for (const host of ["0.0.0.0", "::", "192.168.1.10", "10.0.0.1", "example.com", "128.0.0.1"]) {
    assert.ok(!isLoopbackHost(host), host);
  }
});

/** Asserts that `vars` is a ConfigError whose one line names every variable of `names`. */
function assertRefused(vars: Record<string, string>, names: string[]): void {
  assert.throws(() => listenHostFromEnv(new Env(vars)), (err: Error) => {
    assert.ok(err instanceof ConfigError, String(err));
    assert.ok(!err.message.includes("\n"), err.message);
    for (const name of names) assert.ok(err.message.includes(name), `${name} in ${err.message}`);
    return true;
  });
}

Deno.test("ALLOW_PRIVATE_NETWORKS refuses a host other machines can reach", () => {
  const open = { ALLOW_PRIVATE_NETWORKS: "true" };
  for (const HOST of ["0.0.0.0", "::", "192.168.1.10"]) {
    assertRefused({ ...open, HOST }, ["ALLOW_PRIVATE_NETWORKS", "HOST", HOST]);
  }
  // Outside dev the default host is every interface, so the pair needs HOST=127.0.0.1.
  assertRefused(open, ["ALLOW_PRIVATE_NETWORKS", "HOST", DEPLOYED_HOST]);
  // On loopback, or with the second explicit variable, it starts.
  assert.equal(listenHostFromEnv(new Env({ ...open, DEV_MODE: "true" })), "127.0.0.1");
  assert.equal(listenHostFromEnv(new Env({ ...open, HOST: "localhost" })), "localhost");
  const remote = { ...open, HOST: "0.0.0.0", ALLOW_PRIVATE_NETWORKS_REMOTELY: "true" };
  assert.equal(listenHostFromEnv(new Env(remote)), "0.0.0.0");
  // A malformed second variable or HOST names itself.
  assertRefused({ ...remote, ALLOW_PRIVATE_NETWORKS_REMOTELY: "sure" }, [
    "ALLOW_PRIVATE_NETWORKS_REMOTELY",
  ]);
  assertRefused({ HOST: "http://0.0.0.0:80/" }, ["HOST"]);
});

Deno.test("a service refuses ALLOW_PRIVATE_NETWORKS on 0.0.0.0 at start-up", async () => {
  await assertConfigError(
    "dependency-analyzer",
    { ALLOW_PRIVATE_NETWORKS: "true", HOST: "0.0.0.0" },
    "ALLOW_PRIVATE_NETWORKS=true with HOST=0.0.0.0",
  );
});

Deno.test("a service logs where it listens as one JSON line", async () => {
  const service = await startEntrypoint("dependency-analyzer", { DEV_MODE: "true" });
  try {
    const res = await fetch(`${service.origin}/`);
    assert.equal(res.status, 200);
    await res.body?.cancel();
  } finally {
    await service.stop("SIGTERM");
  }
  const line = service.stderr().split("\n").find((l) => l.includes("Listening on"));
  assert.ok(line, service.stderr());
  const record = JSON.parse(line);
  assert.equal(record.event, "listening");
  assert.equal(record.message, `Listening on ${service.origin}/`);
});
