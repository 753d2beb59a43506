/** Keys whose percent-decoding fails, and keys with bidirectional controls, are 400. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/object-storage/app.ts";
import { undecodableParam } from "../../functions/object-storage/raw_query.ts";
import { filesystemBackend } from "./backends.ts";

Deno.test("undecodableParam: the raw value, before the router's lenient decoding", () => {
  assert.equal(undecodableParam("http://x/object?key=%ED%A0%80", ["key"]), "key");
  assert.equal(undecodableParam("http://x/object?key=%E0%A4%A", ["key"]), "key");
  assert.equal(undecodableParam("http://x/objects?prefix=%FF&key=a", ["key", "prefix"]), "prefix");
  assert.equal(undecodableParam("http://x/object?key=%25ED%25A0%2580", ["key"]), null);
  assert.equal(undecodableParam("http://x/object?other=%FF&key=a%20b", ["key"]), null);
  assert.equal(undecodableParam("http://x/object", ["key"]), null);
});

Deno.test("PUT/GET/DELETE /object and GET /objects refuse undecodable keys and bidi controls; nothing is stored", async () => {
  const backend = await filesystemBackend();
  try {
    const app = createApp(await backend.fresh(), { log: () => {} });
    const bad: [string, string][] = [
      ["key=%ED%A0%80", "Invalid key"],
      ["key=%C3", "Invalid key"],
      ["key=" + encodeURIComponent("photo\u202egpj.exe"), "Invalid key"],
      ["key=" + encodeURIComponent("a\u2066b"), "Invalid key"],
    ];
    for (const [query, error] of bad) {
      for (const method of ["PUT", "GET", "DELETE"]) {
        const res = await app.request(`/object?${query}`, {
          method,
          body: method === "PUT" ? "x" : undefined,
        });
        assert.equal(res.status, 400, `${method} ${query}`);
        assert.deepEqual(await res.json(), { error, code: "INVALID_INPUT" });
      }
    }
    const list = await app.request("/objects?prefix=%ED%A0%80");
    assert.equal(list.status, 400);
    assert.deepEqual(await list.json(), { error: "Invalid prefix", code: "INVALID_INPUT" });
    assert.deepEqual(await backend.files(), [], "nothing stored");
    // The encoded spelling is a different, valid key of its own.
    const ok = await app.request("/object?key=%25ED%25A0%2580", { method: "PUT", body: "x" });
    assert.equal(ok.status, 200);
    assert.equal((await ok.json()).key, "%ED%A0%80");
  } finally {
    await backend.close();
  }
});
