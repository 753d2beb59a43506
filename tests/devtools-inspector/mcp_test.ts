/** `POST /mcp` of devtools-inspector, through the MCP SDK's own client. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/devtools-inspector/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { guardedPolicy } from "../support/policy.ts";
import { assertToolError, assertTools, mcpSession, resultText } from "../support/mcp_client.ts";

Deno.test("devtools-inspector over MCP: inspect_site is GET /inspect", async () => {
  const pages = startFixtureServer();
  const app = createApp({ fetchPolicy: guardedPolicy({}, [pages.origin]) }, { log: () => {} });
  try {
    await using mcp = await mcpSession(app);
    await assertTools(mcp, { inspect_site: ["url"] });

    const url = pages.url("/pages/blog.html");
    const result = await mcp.call("inspect_site", { url });
    const http = await mcp.http(`/inspect?url=${encodeURIComponent(url)}`);
    assert.equal(http.status, 200);
    assert.ok(!result.isError);
    // Timings differ from one fetch to the next; everything the page and its headers decide
    // is the same, and the text is the structured content.
    const structured = result.structuredContent as Record<string, unknown>;
    assert.deepEqual(JSON.parse(resultText(result)), structured);
    const expected = JSON.parse(http.text);
    for (const key of ["url", "finalUrl", "status", "security", "page"]) {
      assert.deepEqual(structured[key], expected[key], key);
    }

    assertToolError(await mcp.call("inspect_site", { url: "" }), "INVALID_URL");
    const refused = assertToolError(
      await mcp.call("inspect_site", { url: "http://192.168.1.1/" }),
      "INVALID_URL",
    );
    assert.match(refused.error, /private/i);
  } finally {
    await pages.close();
  }
});
