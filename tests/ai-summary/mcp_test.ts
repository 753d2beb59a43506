/** `POST /mcp` of ai-summary, through the MCP SDK's own client. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/ai-summary/app.ts";
import { extractiveAi } from "../../shared/bindings/ai/mod.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { guardedPolicy } from "../support/policy.ts";
import {
  assertSameAsHttp,
  assertToolError,
  assertTools,
  mcpSession,
} from "../support/mcp_client.ts";

Deno.test("ai-summary over MCP: summarize_page and read_page are GET /summary and /read", async () => {
  const pages = startFixtureServer();
  const app = createApp(
    { fetchPolicy: guardedPolicy({}, [pages.origin]), AI: extractiveAi() },
    { log: () => {} },
  );
  try {
    await using mcp = await mcpSession(app);
    await assertTools(mcp, { summarize_page: ["url"], read_page: ["url"] });

    const url = pages.url("/pages/blog.html");
    const result = await mcp.call("summarize_page", { url });
    assertSameAsHttp(result, await mcp.http(`/summary?url=${encodeURIComponent(url)}`));
    assert.ok((result.structuredContent as { summary: string }).summary.length > 0);

    // The page's own error status is the contract's error, with its code.
    const missing = assertToolError(
      await mcp.call("summarize_page", { url: pages.url("/pages/none.html") }),
      "FETCH_OR_AI_ERROR",
    );
    assert.match(missing.error, /HTTP 404/);
    assertToolError(await mcp.call("summarize_page", { url: "ftp://x/" }), "INVALID_URL");

    const read = await mcp.call("read_page", { url, format: "text" });
    assertSameAsHttp(read, await mcp.http(`/read?url=${encodeURIComponent(url)}&format=text`));
    assert.equal((read.structuredContent as { format: string }).format, "text");
    assertToolError(await mcp.call("read_page", { url, format: "pdf" }), "INVALID_INPUT");
    assertToolError(await mcp.call("read_page", { url: "http://10.1.2.3/" }), "INVALID_URL");
    const refused = assertToolError(
      await mcp.call("summarize_page", { url: "http://127.0.0.1:1/" }),
      "INVALID_URL",
    );
    assert.match(refused.error, /private/i);
  } finally {
    await pages.close();
  }
});
