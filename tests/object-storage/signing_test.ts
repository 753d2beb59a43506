/** Signed-link primitives: the admin check and the grant's signature over every field. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/object-storage/app.ts";
import {
  isAdmin,
  signGrant,
  signingConfig,
  verifyGrant,
} from "../../functions/object-storage/signing.ts";
import { filesystemBackend } from "./backends.ts";

const config = await signingConfig("s".repeat(32), "admin-token-000000");

Deno.test("signing: the admin token is a Bearer token, compared whole", async () => {
  assert.equal(await isAdmin(config, "Bearer admin-token-000000"), true);
  assert.equal(await isAdmin(config, "bearer admin-token-000000"), true);
  for (const h of [undefined, "", "admin-token-000000", "Bearer admin-token-00000", "Basic x"]) {
    assert.equal(await isAdmin(config, h), false, String(h));
  }
});

Deno.test("signing: a grant verifies as signed, and any field changed does not", async () => {
  const grant = {
    method: "PUT" as const,
    key: "a/b c.txt",
    public: true,
    expires: 2_000_000_000,
    maxBytes: 10,
    contentType: "text/plain",
  };
  const query = new URLSearchParams(await signGrant(config, grant));
  assert.deepEqual(await verifyGrant(config, "PUT", query, 0), grant);
  await assert.rejects(verifyGrant(config, "GET", query, 0), /Invalid signature/);
  for (const [name, value] of [["key", "a/b"], ["maxBytes", "11"], ["contentType", "text/html"]]) {
    const changed = new URLSearchParams(query);
    changed.set(name, value);
    await assert.rejects(verifyGrant(config, "PUT", changed, 0), /Invalid signature/, name);
  }
  for (const name of ["public", "maxBytes", "contentType", "sig", "expires"]) {
    const removed = new URLSearchParams(query);
    removed.delete(name);
    await assert.rejects(verifyGrant(config, "PUT", removed, 0), /Invalid signature/, name);
  }
  await assert.rejects(verifyGrant(config, "PUT", query, 2_000_000_000_000), /expired/);
});

Deno.test("signing: the three routes and the reusable schemas are in /openapi.json", async () => {
  const backend = await filesystemBackend();
  try {
    const app = createApp(await backend.fresh(), { log: () => {} });
    const doc = await (await app.request("/openapi.json")).json();
    assert.ok(doc.paths["/object/sign"].post.requestBody);
    assert.ok(doc.paths["/object/sign"].post.responses["401"]);
    assert.ok(doc.paths["/object/signed"].get.responses["403"]);
    assert.ok(doc.paths["/object/signed"].put.responses["413"]);
    assert.ok(doc.components.schemas.SignRequest && doc.components.schemas.SignResult);
  } finally {
    await backend.close();
  }
});
