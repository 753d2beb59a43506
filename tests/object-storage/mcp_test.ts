/** `POST /mcp` of object-storage, through the MCP SDK's own client, on the filesystem buckets. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/object-storage/app.ts";
import { filesystemBackend } from "./backends.ts";
import {
  assertSameAsHttp,
  assertToolError,
  assertTools,
  mcpSession,
  resultText,
} from "../support/mcp_client.ts";

Deno.test("object-storage over MCP: put_object, get_object, list_objects", async () => {
  const backend = await filesystemBackend();
  try {
    const app = createApp(await backend.fresh(), { log: () => {} });
    await using mcp = await mcpSession(app);
    const tools = await assertTools(mcp, {
      put_object: ["key"],
      get_object: ["key"],
      list_objects: [],
    });
    assert.deepEqual(
      Object.keys(tools.get("put_object")!.inputSchema.properties ?? {}).sort(),
      ["content", "content-type", "key", "public"],
    );

    const put = await mcp.call("put_object", {
      key: "notes/today.txt",
      content: "Remember the milk. ✓",
      "content-type": "text/plain; charset=utf-8",
    });
    assert.ok(!put.isError, JSON.stringify(put));
    assert.deepEqual(put.structuredContent, { key: "notes/today.txt", uploaded: true });

    // What the tool stored is what HTTP reads, and the reverse.
    const http = await fetch(`${mcp.origin}/object?key=notes/today.txt`);
    assert.equal(http.headers.get("content-type"), "text/plain; charset=utf-8");
    assert.equal(await http.text(), "Remember the milk. ✓");
    const got = await mcp.call("get_object", { key: "notes/today.txt" });
    assert.ok(!got.isError);
    assert.equal(resultText(got), "Remember the milk. ✓");

    await fetch(`${mcp.origin}/object?key=data/blob.bin`, {
      method: "PUT",
      headers: { "content-type": "application/octet-stream" },
      body: new Uint8Array([0, 1, 2, 255]),
    }).then((r) => r.body?.cancel());
    const blob = await mcp.call("get_object", { key: "data/blob.bin" });
    const resource = blob.content[0] as {
      type: string;
      resource: { blob: string; mimeType: string };
    };
    assert.equal(resource.type, "resource");
    assert.equal(resource.resource.mimeType, "application/octet-stream");
    assert.equal(resource.resource.blob, btoa("\x00\x01\x02\xff"));

    assertSameAsHttp(
      await mcp.call("list_objects", { prefix: "notes/" }),
      await mcp.http("/objects?prefix=notes/"),
    );

    // Contract errors, with the contract's bodies (the upload's missing key has no code).
    const missingKey = await mcp.call("put_object", { content: "x" });
    assert.equal(missingKey.isError, true);
    assert.deepEqual(JSON.parse(resultText(missingKey)), { error: "Missing key" });
    const invalid = assertToolError(
      await mcp.call("put_object", { key: "../escape", content: "x" }),
      "INVALID_INPUT",
    );
    assert.equal(invalid.error, "Invalid key");
    const gone = assertToolError(await mcp.call("get_object", { key: "no/such" }), "NOT_FOUND");
    assert.equal(gone.error, "Object not found");
    assertToolError(await mcp.call("list_objects", { limit: "0" }), "INVALID_INPUT");
    assert.deepEqual(await backend.files().then((f) => f.filter((p) => p.includes("escape"))), []);
  } finally {
    await backend.close();
  }
});
