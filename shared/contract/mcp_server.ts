/**
 * The MCP server behind `POST /mcp` (see mcp.ts), on the official SDK: its low-level `Server`
 * with the web-standard Streamable HTTP transport (a `Request` in, a `Response` out, as Hono
 * and Deno.serve have them), a new one per request (stateless), answering with JSON.
 *
 * The low-level server rather than `McpServer`: `McpServer` validates a call's arguments with
 * its own zod pass and answers a protocol error, while here the route validates them, so that
 * a bad argument is the route's own contract error, message and code.
 */
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import {
  type CallToolRequest,
  CallToolRequestSchema,
  type CallToolResult,
  ErrorCode,
  ListToolsRequestSchema,
  McpError,
  type Tool,
} from "@modelcontextprotocol/sdk/types.js";
import { type LightApp, type OpenApiDocument, openapiDocument } from "./light_app.ts";
import type { McpEndpoint, McpTool } from "./mcp.ts";
import { REQUEST_ID_HEADER } from "./middleware.ts";

// deno-lint-ignore no-explicit-any
type Json = any;

/** Where a tool argument goes in the request to the app (`bearer`: `Authorization: Bearer`). */
type Slot = "path" | "query" | "header" | "body" | "bearer";

/** A tool and the request it makes. */
export interface ToolRoute {
  /** The tool as `tools/list` gives it. */
  tool: Tool;
  method: string;
  /** The OpenAPI path template (`/{code}/stats`). */
  path: string;
  /** Where each argument goes. */
  slots: Map<string, Slot>;
  /** How the body is sent: as JSON (the `body` arguments), as text (`content`), or not at all. */
  body: "json" | "text" | null;
}

/** The argument of a route whose body is not JSON (an upload): the body, as text. */
export const CONTENT_ARGUMENT = "content";

/** The argument of a route that needs a bearer token: the token. */
export const TOKEN_ARGUMENT = "token";

/**
 * The server's JSON Schema validator (for elicitation, which these servers never use), made
 * once: the SDK would otherwise build an Ajv instance for every request, the largest part of a
 * stateless request's cost.
 */
let validator: AjvJsonSchemaValidator | undefined;

const routesOf = new WeakMap<object, Map<string, ToolRoute>>();

/** The tools of an endpoint, built from the app's OpenAPI document once and kept. */
export async function toolRoutes(endpoint: McpEndpoint): Promise<Map<string, ToolRoute>> {
  let routes = routesOf.get(endpoint);
  if (!routes) {
    const doc = await openapiDocument(endpoint.app);
    routes = new Map(endpoint.tools.map((tool) => [tool.name, toolRoute(doc, tool)]));
    routesOf.set(endpoint, routes);
  }
  return routes;
}

/** What a tool call carries over from the `POST /mcp` that made it. */
export interface Caller {
  /** The connection info (Deno.serve's): a per-client limit counts the agent's own address. */
  env: unknown;
  /** The request id of the `POST /mcp`: each call's log line carries it too. */
  requestId: string;
}

/** Answers one `POST /mcp` whose body (at most the endpoint's cap) is `body`. */
export async function handleMcp(
  endpoint: McpEndpoint,
  req: Request,
  body: Uint8Array,
  caller: Caller,
): Promise<Response> {
  const routes = await toolRoutes(endpoint);
  const { info, app } = endpoint;
  const server = new Server(
    { name: info.name, version: "1.0.0" },
    {
      capabilities: { tools: {} },
      instructions: `${info.description} HTTP: ${info.usage}`,
      jsonSchemaValidator: validator ??= new AjvJsonSchemaValidator(),
    },
  );
  server.setRequestHandler(ListToolsRequestSchema, () => ({
    tools: [...routes.values()].map((r) => r.tool),
  }));
  server.setRequestHandler(CallToolRequestSchema, ({ params }: CallToolRequest) => {
    const route = routes.get(params.name);
    if (!route) throw new McpError(ErrorCode.InvalidParams, `Unknown tool: ${params.name}`);
    return callTool(app, route, params.arguments ?? {}, req.url, caller);
  });
  const transport = new WebStandardStreamableHTTPServerTransport({
    sessionIdGenerator: undefined,
    enableJsonResponse: true,
  });
  await server.connect(transport);
  try {
    const replay = new Request(req.url, {
      method: req.method,
      headers: req.headers,
      body: body as Uint8Array<ArrayBuffer>,
    });
    return await transport.handleRequest(replay);
  } finally {
    await server.close();
  }
}

/** Calls the tool's route on the app, in process, as a client would over HTTP. */
async function callTool(
  app: LightApp,
  route: ToolRoute,
  args: Record<string, unknown>,
  base: string,
  caller: Caller,
): Promise<CallToolResult> {
  let path = route.path;
  const headers = new Headers({ [REQUEST_ID_HEADER]: caller.requestId });
  const query = new URLSearchParams();
  const json: Record<string, unknown> = {};
  for (const [name, slot] of route.slots) {
    const value = args[name];
    if (slot === "path") {
      if (value === undefined || value === "") {
        return errorResult({ error: `Missing ${name}`, code: "INVALID_INPUT" });
      }
      path = path.replace(`{${name}}`, encodeURIComponent(text(value)));
    } else if (value === undefined) continue;
    else if (slot === "query") {
      // A list is the parameter repeated (`include=a&include=b`), as OpenAPI's form style says.
      for (const item of Array.isArray(value) ? value : [value]) query.append(name, text(item));
    } else if (slot === "header") headers.set(name, text(value));
    else if (slot === "bearer") headers.set("authorization", `Bearer ${text(value)}`);
    else json[name] = value;
  }
  let body: string | undefined;
  if (route.body === "json") {
    headers.set("content-type", "application/json");
    body = JSON.stringify(json);
  } else if (route.body === "text" && args[CONTENT_ARGUMENT] !== undefined) {
    body = text(args[CONTENT_ARGUMENT]);
  }
  const url = new URL(path, base);
  url.search = query.toString();
  const req = new Request(url, { method: route.method, headers, body });
  const res = await app.fetch(req, caller.env);
  return await toolResult(res, url.href);
}

/** A query, header or path value as text (a JSON value that is not a string, as JSON). */
function text(value: unknown): string {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** A contract error body as a tool error: the same JSON as the HTTP answer. */
function errorResult(body: { error: string; code?: string }): CallToolResult {
  return { isError: true, content: [{ type: "text", text: JSON.stringify(body) }] };
}

/**
 * The app's answer as a tool result: a JSON answer is the structured content and its text; an
 * image is image content; other text is text; other bytes an embedded resource; an error is a
 * tool error whose text is the contract's `{error, code}`.
 */
async function toolResult(res: Response, uri: string): Promise<CallToolResult> {
  const type = res.headers.get("content-type") ?? "";
  const mimeType = type.split(";")[0].trim();
  const bytes = new Uint8Array(await res.arrayBuffer());
  const asText = () => new TextDecoder().decode(bytes);
  if (res.status >= 400) return { isError: true, content: [{ type: "text", text: asText() }] };
  if (mimeType === "application/json") {
    const body = asText();
    return { content: [{ type: "text", text: body }], structuredContent: JSON.parse(body) };
  }
  if (mimeType.startsWith("image/")) {
    return { content: [{ type: "image", data: base64(bytes), mimeType }] };
  }
  if (bytes.length === 0) {
    return { content: [{ type: "text", text: `Done (HTTP ${res.status}, no content)` }] };
  }
  if (mimeType.startsWith("text/")) return { content: [{ type: "text", text: asText() }] };
  return {
    content: [{
      type: "resource",
      resource: { uri, mimeType: mimeType || "application/octet-stream", blob: base64(bytes) },
    }],
  };
}

/** Base64 of bytes (V8's `Uint8Array.prototype.toBase64`). */
function base64(bytes: Uint8Array): string {
  return (bytes as Uint8Array & { toBase64(): string }).toBase64();
}

/** The operation whose operationId is `id`, with its method and path. */
function findOperation(
  doc: OpenApiDocument,
  id: string,
): { method: string; path: string; op: Json } {
  for (const [path, item] of Object.entries<Json>(doc.paths ?? {})) {
    for (const [method, op] of Object.entries<Json>(item)) {
      if (op?.operationId === id) return { method: method.toUpperCase(), path, op };
    }
  }
  throw new Error(`MCP tool: no operation ${id} in the OpenAPI document`);
}

/** A tool from its operation: the parameters and the JSON body as input, the 2xx JSON as output. */
function toolRoute(doc: OpenApiDocument, tool: McpTool): ToolRoute {
  const { method, path, op } = findOperation(doc, tool.operationId);
  const properties: Record<string, Json> = {};
  const required: string[] = [];
  const slots = new Map<string, Slot>();
  const add = (name: string, slot: Slot, schema: Json, isRequired: boolean) => {
    if (slots.has(name)) throw new Error(`MCP tool ${tool.name}: two inputs named ${name}`);
    slots.set(name, slot);
    properties[name] = schema;
    if (isRequired) required.push(name);
  };
  for (const param of op.parameters ?? []) {
    const schema = { ...inline(doc, param.schema ?? {}) };
    if (param.description) schema.description = param.description;
    if (param.example !== undefined && schema.examples === undefined) {
      schema.examples = [param.example];
    }
    add(param.name, param.in as Slot, schema, param.required === true);
  }
  let body: ToolRoute["body"] = null;
  const content = op.requestBody?.content ?? {};
  if (content["application/json"]) {
    body = "json";
    const schema = inline(doc, content["application/json"].schema ?? {});
    const bodyRequired = new Set<string>(schema.required ?? []);
    for (const [name, prop] of Object.entries<Json>(schema.properties ?? {})) {
      add(name, "body", prop, bodyRequired.has(name));
    }
  } else if (Object.keys(content).length > 0) {
    body = "text";
    add(CONTENT_ARGUMENT, "body", {
      type: "string",
      description: "The request body, sent as UTF-8 text",
    }, op.requestBody.required === true);
  }
  const bearer = bearerScheme(doc, op);
  if (bearer) {
    add(TOKEN_ARGUMENT, "bearer", {
      type: "string",
      description: bearer.description ?? "The bearer token the route needs",
    }, true);
  }
  const inputSchema: Tool["inputSchema"] = { type: "object", properties };
  if (required.length > 0) inputSchema.required = required;
  const definition: Tool = {
    name: tool.name,
    title: op.summary,
    description: tool.description,
    inputSchema,
    annotations: {
      title: op.summary,
      readOnlyHint: method === "GET",
      destructiveHint: method === "DELETE",
    },
  };
  const output = successJsonSchema(doc, op);
  if (output) definition.outputSchema = output;
  return { tool: definition, method, path, slots, body };
}

/** The bearer scheme the operation requires, if any (`security: [{name: []}]`, type http). */
function bearerScheme(doc: OpenApiDocument, op: Json): { description?: string } | undefined {
  for (const requirement of op.security ?? []) {
    for (const name of Object.keys(requirement)) {
      const scheme = doc.components?.securitySchemes?.[name];
      if (scheme?.type === "http" && scheme.scheme === "bearer") return scheme;
    }
  }
  return undefined;
}

/** The JSON schema of the operation's success answer, when it is a JSON object. */
function successJsonSchema(doc: OpenApiDocument, op: Json): Tool["outputSchema"] | undefined {
  for (const [status, response] of Object.entries<Json>(op.responses ?? {})) {
    if (!status.startsWith("2")) continue;
    const schema = response.content?.["application/json"]?.schema;
    if (!schema) continue;
    const resolved = inline(doc, schema);
    // MCP wants an object at the root: a union of objects (`kind: "page" | "manifest"`) is one.
    const branches: Json[] | undefined = resolved.anyOf ?? resolved.oneOf;
    const isObject = resolved.type === "object" ||
      (resolved.type === undefined && branches?.every((b) => b.type === "object"));
    return isObject ? { ...resolved, type: "object" } : undefined;
  }
  return undefined;
}

/** `schema` with each `#/components/schemas/…` reference replaced by a copy of its target. */
function inline(doc: OpenApiDocument, schema: Json, seen: string[] = []): Json {
  if (Array.isArray(schema)) return schema.map((s) => inline(doc, s, seen));
  if (schema === null || typeof schema !== "object") return schema;
  const ref = schema.$ref;
  if (typeof ref === "string" && ref.startsWith("#/components/schemas/")) {
    const name = ref.slice("#/components/schemas/".length);
    if (seen.includes(name)) throw new Error(`MCP tool schema: ${name} refers to itself`);
    return inline(doc, doc.components?.schemas?.[name] ?? {}, [...seen, name]);
  }
  const out: Json = {};
  for (const [key, value] of Object.entries(schema)) out[key] = inline(doc, value, seen);
  return out;
}
