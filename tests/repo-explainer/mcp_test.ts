/** `POST /mcp` of repo-explainer, through the MCP SDK's own client, on the fake GitHub API. */
import assert from "node:assert/strict";
import { createApp, NOT_A_REPO } from "../../functions/repo-explainer/app.ts";
import { extractiveAi } from "../../shared/bindings/ai/mod.ts";
import { startGithubFake } from "../support/github_fake.ts";
import { guardedPolicy } from "../support/policy.ts";
import {
  assertSameAsHttp,
  assertToolError,
  assertTools,
  mcpSession,
} from "../support/mcp_client.ts";

Deno.test("repo-explainer over MCP: explain_repository is GET /explain", async () => {
  const github = startGithubFake([{
    owner: "acme",
    name: "rocket",
    description: "A tiny static web server.",
    language: "JavaScript",
    stars: 7,
    files: { "README.md": "# Rocket\n\nServes static sites.\n", "src": null },
    readme: "# Rocket\n\nServes static sites.\n",
  }]);
  const app = createApp({
    // The fake API's origin is let through; a private address elsewhere is refused.
    fetchPolicy: guardedPolicy({}, [github.apiUrl]),
    AI: extractiveAi(),
    github: { apiUrl: github.apiUrl },
  }, { log: () => {} });
  try {
    await using mcp = await mcpSession(app);
    await assertTools(mcp, { explain_repository: ["url"] });

    const url = "https://github.com/acme/rocket";
    const result = await mcp.call("explain_repository", { url });
    assertSameAsHttp(result, await mcp.http(`/explain?url=${encodeURIComponent(url)}`));
    assert.equal((result.structuredContent as { repo: string }).repo, "acme/rocket");

    const notRepo = assertToolError(
      await mcp.call("explain_repository", { url: "https://example.com/x" }),
      "INVALID_URL",
    );
    assert.equal(notRepo.error, NOT_A_REPO);
    assertToolError(
      await mcp.call("explain_repository", { url: "https://github.com/acme/missing" }),
      "NOT_FOUND",
    );
  } finally {
    await github.close();
  }
});
