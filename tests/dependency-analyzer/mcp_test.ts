/** `POST /mcp` of dependency-analyzer, through the MCP SDK's own client. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/dependency-analyzer/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { guardedPolicy } from "../support/policy.ts";
import {
  assertSameAsHttp,
  assertToolError,
  assertTools,
  mcpSession,
} from "../support/mcp_client.ts";

Deno.test("dependency-analyzer over MCP: analyze_page is GET /analyze", async () => {
  const pages = startFixtureServer();
  // The fixture server's origin is let through; every other private address is refused.
  const app = createApp({ fetchPolicy: guardedPolicy({}, [pages.origin]) }, { log: () => {} });
  try {
    await using mcp = await mcpSession(app);
    const tools = await assertTools(mcp, { analyze_page: ["url"] });
    const tool = tools.get("analyze_page")!;
    assert.equal(tool.annotations?.readOnlyHint, true);
    assert.equal(tool.outputSchema?.type, "object");

    const url = pages.url("/pages/nextjs.html");
    const result = await mcp.call("analyze_page", { url });
    const http = await mcp.http(`/analyze?url=${encodeURIComponent(url)}`);
    assertSameAsHttp(result, http, ["fetchedAt"]);
    assert.equal((result.structuredContent as { kind: string }).kind, "page");

    const invalid = assertToolError(
      await mcp.call("analyze_page", { url: "ftp://x/" }),
      "INVALID_URL",
    );
    assert.equal(invalid.error, "Missing or invalid url");
    assertToolError(await mcp.call("analyze_page", {}), "INVALID_URL");

    // An agent is refused a private address exactly as an HTTP client is.
    const privateUrl = "http://127.0.0.1:9/admin";
    const refused = await mcp.call("analyze_page", { url: privateUrl });
    const direct = await mcp.http(`/analyze?url=${encodeURIComponent(privateUrl)}`);
    assert.equal(direct.status, 400);
    const body = assertToolError(refused, "INVALID_URL");
    assert.deepEqual(body, JSON.parse(direct.text));
    assert.match(body.error, /private/i);
  } finally {
    await pages.close();
  }
});
