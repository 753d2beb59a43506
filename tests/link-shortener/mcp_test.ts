/** `POST /mcp` of link-shortener, through the MCP SDK's own client. */
import assert from "node:assert/strict";
import { linkApp } from "./app_fixture.ts";
import { MANAGE_TOKEN_MESSAGE } from "../../functions/link-shortener/manage_token.ts";
import {
  assertSameAsHttp,
  assertToolError,
  assertTools,
  mcpSession,
} from "../support/mcp_client.ts";

Deno.test("link-shortener over MCP: shorten_link, get_link_info, get_link_stats", async () => {
  await using fx = await linkApp();
  await using mcp = await mcpSession(fx.app);
  const tools = await assertTools(mcp, {
    shorten_link: ["url"],
    get_link_info: ["code"],
    get_link_stats: ["code"],
    update_link: ["code", "token"],
    delete_link: ["code", "token"],
  });
  assert.equal(tools.get("delete_link")!.annotations?.destructiveHint, true);
  assert.equal(tools.get("shorten_link")!.annotations?.readOnlyHint, false);
  assert.deepEqual(
    Object.keys(tools.get("shorten_link")!.inputSchema.properties ?? {}).sort(),
    ["code", "expiresAt", "url"],
  );

  const created = await mcp.call("shorten_link", {
    url: "https://example.com/agent",
    code: "agent-link",
  });
  assert.ok(!created.isError, JSON.stringify(created));
  const link = created.structuredContent as { code: string; shortUrl: string; manageToken: string };
  assert.equal(link.code, "agent-link");
  assert.equal(link.shortUrl, `${mcp.origin}/agent-link`);
  assert.ok(link.manageToken.length > 20);

  // The link works over HTTP, and the click shows in the stats the tool reads.
  const followed = await fetch(`${mcp.origin}/agent-link`, { redirect: "manual" });
  await followed.body?.cancel();
  assert.equal(followed.headers.get("location"), "https://example.com/agent");
  assertSameAsHttp(
    await mcp.call("get_link_info", { code: "agent-link" }),
    await mcp.http("/agent-link/info"),
  );
  const stats = await mcp.call("get_link_stats", { code: "agent-link" });
  assertSameAsHttp(stats, await mcp.http("/agent-link/stats"));
  assert.equal((stats.structuredContent as { totalClicks: number }).totalClicks, 1);

  // Contract errors: the same code and message as over HTTP.
  const taken = assertToolError(
    await mcp.call("shorten_link", { url: "https://example.com/", code: "agent-link" }),
    "INVALID_INPUT",
  );
  assert.match(taken.error, /taken|exists|use/i);
  const badUrl = assertToolError(
    await mcp.call("shorten_link", { url: "javascript:alert(1)" }),
    "INVALID_URL",
  );
  assert.equal(badUrl.error, "Missing or invalid url in body");
  const missing = assertToolError(
    await mcp.call("get_link_stats", { code: "nope404" }),
    "NOT_FOUND",
  );
  assert.equal(missing.error, "Link not found");
  assertToolError(await mcp.call("get_link_stats", {}), "INVALID_INPUT");

  // The manage token is the `token` argument, sent as the bearer token the routes need.
  const wrong = assertToolError(
    await mcp.call("update_link", { code: "agent-link", token: "nope", url: "https://x.test/" }),
    "INVALID_INPUT",
  );
  assert.equal(wrong.error, MANAGE_TOKEN_MESSAGE);
  const updated = await mcp.call("update_link", {
    code: "agent-link",
    token: link.manageToken,
    url: "https://example.com/moved",
  });
  assert.equal((updated.structuredContent as { url: string }).url, "https://example.com/moved");
  const moved = await fetch(`${mcp.origin}/agent-link`, { redirect: "manual" });
  await moved.body?.cancel();
  assert.equal(moved.headers.get("location"), "https://example.com/moved");
  const deleted = await mcp.call("delete_link", { code: "agent-link", token: link.manageToken });
  assert.ok(!deleted.isError, JSON.stringify(deleted));
  assertToolError(await mcp.call("get_link_info", { code: "agent-link" }), "NOT_FOUND");
});

Deno.test("link-shortener over MCP: the per-client limit of POST /shorten counts the agent", async () => {
  await using fx = await linkApp({ shortenRateLimit: { limit: 1, windowSeconds: 60 } });
  await using mcp = await mcpSession(fx.app);
  const first = await mcp.call("shorten_link", { url: "https://example.com/1" });
  assert.ok(!first.isError, JSON.stringify(first));
  const second = assertToolError(
    await mcp.call("shorten_link", { url: "https://example.com/2" }),
    "INVALID_INPUT",
  );
  assert.equal(second.error, "Too many links: at most 1 per 60 s");
  // The same client over HTTP shares the count: MCP is no way around the limit.
  const http = await mcp.http("/shorten", {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ url: "https://example.com/3" }),
  });
  assert.equal(http.status, 429);
});
