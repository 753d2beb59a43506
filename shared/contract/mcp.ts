/**
 * `POST /mcp`: the experiment as an MCP server, so that an agent calls it without glue code
 * (Streamable HTTP transport, stateless: no session, each POST answered with JSON).
 *
 * An experiment declares one tool per main route, by the route's operationId
 * ({@link McpTool}); the tool's input schema (the route's parameters and JSON body) and its
 * output schema (the success response) are read from the app's own OpenAPI document, itself
 * built from the route's zod schemas: one source of truth. A tool call is a request to the app
 * itself, in process, so the URL rule, the safe fetch, the caps, the rate limits and the errors
 * apply unchanged: an agent is just another client.
 *
 * The MCP SDK is loaded by the first `POST /mcp` (mcp_server.ts), so `GET /` and a cold
 * start do not pay for it.
 */
import type { LightApp, RootInfo } from "./light_app.ts";
import { readBodyLimited } from "./body_limit.ts";
import { ApiError, errorResponse } from "./errors.ts";
import { onFirstUse } from "./lazy.ts";

/** The path of the MCP endpoint. */
export const MCP_PATH = "/mcp";

/** The largest JSON-RPC message `POST /mcp` reads by default (bytes). */
export const MCP_MAX_BODY_BYTES = 1024 * 1024;

/** The message of `GET`/`DELETE /mcp` (405: a stateless server has no stream, no session). */
export const MCP_POST_ONLY =
  "Method not allowed: this MCP endpoint is stateless, send JSON-RPC messages with POST";

/** One MCP tool: a route of the app, named for an agent. */
export interface McpTool {
  /** The tool's name, snake_case (`analyze_page`). */
  name: string;
  /** The operationId of the route it calls (`analyzePage`). */
  operationId: string;
  /** What the tool does and when to use it, written for a model. */
  description: string;
}

/** Options of the MCP endpoint. */
export interface McpOptions {
  /** The largest JSON-RPC message read (default {@link MCP_MAX_BODY_BYTES}); over it, 413. */
  maxBodyBytes?: number;
}

/** What the MCP server serves: the app, its root document and its tools. */
export interface McpEndpoint {
  app: LightApp;
  info: RootInfo;
  tools: readonly McpTool[];
}

const loadServer = onFirstUse(() => import("./mcp_server.ts"));

/** Adds `POST /mcp` (and the 405 of `GET`/`DELETE /mcp`) to an app, after its routes. */
export function addMcp(
  app: LightApp,
  info: RootInfo,
  tools: readonly McpTool[],
  options: McpOptions = {},
): void {
  const endpoint: McpEndpoint = { app, info, tools };
  const maxBytes = options.maxBodyBytes ?? MCP_MAX_BODY_BYTES;
  app.post(MCP_PATH, async (c) => {
    const body = await readBodyLimited(c.req.raw, maxBytes);
    const { handleMcp } = await loadServer();
    return await handleMcp(endpoint, c.req.raw, body, {
      env: c.env,
      requestId: c.get("requestId"),
    });
  });
  app.on(["GET", "DELETE"], MCP_PATH, (c) => {
    c.header("Allow", "POST");
    return errorResponse(c, new ApiError("INVALID_INPUT", MCP_POST_ONLY, 405));
  });
}
