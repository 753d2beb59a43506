/** `POST /mcp` of repo-explainer, through the MCP SDK's own client, on the fake GitHub API. */
import assert from "node:assert/strict";
import { createApp, NOT_A_REPO } from "../../functions/repo-explainer/app.ts";
import { extractiveAi } from "../../shared/bindings/ai/mod.ts";
import { startGithubFake } from "../support/github_fake.ts";
import { guardedPolicy, openPolicy } from "../support/policy.ts";
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
    await assertTools(mcp, { explain_repository: ["url"], digest_repository: ["url"] });

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

Deno.test("repo-explainer over MCP: digest_repository is GET /digest, globs as lists", async () => {
  const github = startGithubFake([{
    owner: "acme",
    name: "atlas",
    files: { "README.md": "# Atlas\n", "src": null },
    tree: {
      "README.md": "# Atlas\n",
      "src/index.ts": "export const atlas = true;\n",
      "src/util.ts": "export const util = 1;\n",
      "docs/guide.md": "# Guide\n",
    },
  }]);
  // The fake's tarball redirect goes to a second loopback origin: the address check is off.
  const app = createApp({
    fetchPolicy: openPolicy(),
    AI: extractiveAi(),
    github: { apiUrl: github.apiUrl },
  }, { log: () => {} });
  try {
    await using mcp = await mcpSession(app);
    const url = "https://github.com/acme/atlas";
    const result = await mcp.call("digest_repository", {
      url,
      include: ["src/**", "README.md"],
      exclude: ["src/util.ts"],
    });
    const http = await mcp.http(
      `/digest?url=${encodeURIComponent(url)}&include=src/**&include=README.md&exclude=src/util.ts`,
    );
    assertSameAsHttp(result, http);
    const content = (result.structuredContent as { content: string }).content;
    assert.match(content, /FILE: src\/index\.ts/);
    assert.doesNotMatch(content, /FILE: src\/util\.ts|FILE: docs/);
    assertToolError(
      await mcp.call("digest_repository", { url, include: ["***/["] }),
      "INVALID_INPUT",
    );
  } finally {
    await github.close();
  }
});
