/**
 * The MCP tool lists of the eight experiments: snake_case names unique across the project, one
 * operationId each, and each experiment's README saying how to connect (the one line of client
 * configuration, with its port) and which tools there are. The tools themselves are tested
 * through the SDK's client in each experiment's mcp_test.ts.
 */
import assert from "node:assert/strict";
import { EXPERIMENTS } from "../scripts/experiments.ts";
import type { McpTool } from "../shared/contract/mcp.ts";
import { MCP_TOOLS as analyzer } from "../functions/dependency-analyzer/app.ts";
import { MCP_TOOLS as metadata } from "../functions/metadata-extractor/app.ts";
import { MCP_TOOLS as inspector } from "../functions/devtools-inspector/app.ts";
import { MCP_TOOLS as summary } from "../functions/ai-summary/app.ts";
import { MCP_TOOLS as explainer } from "../functions/repo-explainer/app.ts";
import { MCP_TOOLS as screenshot } from "../functions/screenshot/app.ts";
import { MCP_TOOLS as shortener } from "../functions/link-shortener/app.ts";
import { MCP_TOOLS as storage } from "../functions/object-storage/app.ts";

const TOOLS: Record<string, McpTool[]> = {
  "dependency-analyzer": analyzer,
  "metadata-extractor": metadata,
  "devtools-inspector": inspector,
  "ai-summary": summary,
  "repo-explainer": explainer,
  "screenshot": screenshot,
  "link-shortener": shortener,
  "object-storage": storage,
};

Deno.test("every experiment has MCP tools, named uniquely in snake_case", () => {
  assert.deepEqual(Object.keys(TOOLS).sort(), EXPERIMENTS.map((e) => e.slug).sort());
  const names = Object.values(TOOLS).flat().map((t) => t.name);
  assert.equal(new Set(names).size, names.length, "tool names are unique");
  for (const name of names) assert.match(name, /^[a-z]+(_[a-z]+)+$/, name);
  for (const tools of Object.values(TOOLS)) {
    const ids = tools.map((t) => t.operationId);
    assert.equal(new Set(ids).size, ids.length, "one tool per operation");
  }
});

for (const { slug, port } of EXPERIMENTS) {
  Deno.test(`${slug}: the README says how to connect an MCP client and lists the tools`, async () => {
    const readme = await Deno.readTextFile(
      new URL(`../functions/${slug}/README.md`, import.meta.url),
    );
    const start = readme.indexOf("\n### MCP\n");
    assert.ok(start >= 0, "an MCP section");
    const end = readme.slice(start + 1).search(/\n##? /);
    const section = end < 0 ? readme.slice(start) : readme.slice(start, start + 1 + end);
    const config = { mcpServers: { [slug]: { url: `http://localhost:${port}/mcp` } } };
    const line = section.split("\n").find((l) => l.startsWith('{ "mcpServers"'));
    assert.ok(line, "the configuration line");
    assert.deepEqual(JSON.parse(line), config);
    for (const tool of TOOLS[slug]) assert.ok(section.includes(`\`${tool.name}\``), tool.name);
  });
}
