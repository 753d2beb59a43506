/**
 * An app served on 127.0.0.1 at a free port with the MCP SDK's own client connected to its
 * `POST /mcp` (Streamable HTTP), as an agent would connect; and the checks every experiment's
 * MCP test shares.
 */
import assert from "node:assert/strict";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";

/** What serves requests (an app, or anything with its `fetch`). */
export interface Served {
  fetch(req: Request, info?: Deno.ServeHandlerInfo): Response | Promise<Response>;
}

/** A connected MCP client over a served app. */
export interface McpSession extends AsyncDisposable {
  client: Client;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** The tools, by name. */
  tools(): Promise<Map<string, Tool>>;
  /** Calls a tool. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult>;
  /** The same route over plain HTTP: status and body text. */
  http(path: string, init?: RequestInit): Promise<{ status: number; text: string }>;
}

/** Serves `app` and connects an MCP client to its `/mcp`. */
export async function mcpSession(app: Served): Promise<McpSession> {
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen() {} },
    (req, info) => app.fetch(req, info),
  );
  const origin = `http://127.0.0.1:${server.addr.port}`;
  const client = new Client({ name: "edge-utility-services-tests", version: "1.0.0" });
  try {
    await client.connect(new StreamableHTTPClientTransport(new URL("/mcp", origin)));
  } catch (err) {
    await server.shutdown();
    throw err;
  }
  return {
    client,
    origin,
    tools: async () => new Map((await client.listTools()).tools.map((t: Tool) => [t.name, t])),
    call: async (name, args) => await client.callTool({ name, arguments: args }) as CallToolResult,
    http: async (path, init) => {
      const res = await fetch(new URL(path, origin), init);
      return { status: res.status, text: await res.text() };
    },
    async [Symbol.asyncDispose]() {
      await client.close();
      await server.shutdown();
    },
  };
}

/** The text of a result's only content, which must be text. */
export function resultText(result: CallToolResult): string {
  assert.equal(result.content.length, 1);
  const [content] = result.content;
  assert.equal(content.type, "text");
  return (content as { text: string }).text;
}

/** A tool error whose text is the contract's error body with `code`; returns the body. */
export function assertToolError(
  result: CallToolResult,
  code: string,
): { error: string; code: string } {
  assert.equal(result.isError, true, JSON.stringify(result));
  const body = JSON.parse(resultText(result));
  assert.equal(body.code, code, JSON.stringify(body));
  assert.equal(typeof body.error, "string");
  assert.equal(result.structuredContent, undefined);
  return body;
}

/**
 * A success whose structured content and text are exactly the HTTP answer's JSON, but for the
 * top-level fields in `volatile` (a fetch time), which both must have.
 */
export function assertSameAsHttp(
  result: CallToolResult,
  http: { status: number; text: string },
  volatile: string[] = [],
) {
  assert.ok(!result.isError, JSON.stringify(result));
  assert.ok(http.status >= 200 && http.status < 300, `HTTP ${http.status}: ${http.text}`);
  const stable = (value: unknown) => {
    const copy = { ...value as Record<string, unknown> };
    for (const key of volatile) {
      assert.ok(key in copy, `${key} is in the answer`);
      delete copy[key];
    }
    return copy;
  };
  const expected = stable(JSON.parse(http.text));
  assert.deepEqual(stable(result.structuredContent), expected);
  assert.deepEqual(stable(JSON.parse(resultText(result))), expected);
}

/**
 * The tool list is exactly `names`, each with a description a model can act on and an object
 * input schema that requires `required[name]`.
 */
export async function assertTools(
  session: McpSession,
  required: Record<string, string[]>,
): Promise<Map<string, Tool>> {
  const tools = await session.tools();
  assert.deepEqual([...tools.keys()].sort(), Object.keys(required).sort());
  for (const [name, fields] of Object.entries(required)) {
    const tool = tools.get(name)!;
    assert.ok((tool.description ?? "").length >= 60, `${name}: a description to act on`);
    assert.equal(tool.inputSchema.type, "object");
    assert.deepEqual([...(tool.inputSchema.required ?? [])].sort(), [...fields].sort(), name);
    for (const field of fields) {
      const property = tool.inputSchema.properties?.[field] as { description?: string };
      assert.ok(property?.description, `${name}.${field}: described`);
    }
  }
  return tools;
}
