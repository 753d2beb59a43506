/** `POST /mcp` of metadata-extractor, through the MCP SDK's own client. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { guardedPolicy } from "../support/policy.ts";
import {
  assertSameAsHttp,
  assertToolError,
  assertTools,
  mcpSession,
} from "../support/mcp_client.ts";

Deno.test("metadata-extractor over MCP: extract_metadata is GET /metadata", async () => {
  const pages = startFixtureServer();
  const app = createApp({ fetchPolicy: guardedPolicy({}, [pages.origin]) }, { log: () => {} });
  try {
    await using mcp = await mcpSession(app);
    await assertTools(mcp, { extract_metadata: ["url"] });

    const url = pages.url("/pages/blog.html");
    const result = await mcp.call("extract_metadata", { url });
    assertSameAsHttp(result, await mcp.http(`/metadata?url=${encodeURIComponent(url)}`), [
      "fetchedAt",
    ]);
    assert.equal((result.structuredContent as { url: string }).url, url);

    assertToolError(await mcp.call("extract_metadata", { url: "not a url" }), "INVALID_URL");
    const refused = assertToolError(
      await mcp.call("extract_metadata", { url: "http://10.0.0.1/" }),
      "INVALID_URL",
    );
    assert.match(refused.error, /private/i);
  } finally {
    await pages.close();
  }
});
