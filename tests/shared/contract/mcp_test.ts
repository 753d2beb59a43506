/**
 * The shared MCP endpoint (shared/contract/mcp.ts) on a small app of its own: tools derived
 * from the OpenAPI operations (path, query and header parameters, a JSON body), calls made to
 * the app in process, the stateless transport's 405s, the body cap, and the SDK kept out of
 * every module that loads before the first `POST /mcp`.
 */
import assert from "node:assert/strict";
import { z } from "@hono/zod-openapi";
import { addRoute, createLightApp } from "../../../shared/contract/light_app.ts";
import { type Params, readJsonBody } from "../../../shared/contract/params.ts";
import { ApiError } from "../../../shared/contract/errors.ts";
import { addMcp, MCP_POST_ONLY } from "../../../shared/contract/mcp.ts";
import { errorResponses, jsonContent } from "../../../shared/contract/openapi.ts";
import { assertToolError, mcpSession, resultText } from "../../support/mcp_client.ts";

const ROOT = { name: "echo", description: "Echoes what it is sent.", usage: "POST /echo/{id}" };

const EchoResult = z.object({
  id: z.string(),
  times: z.number().int(),
  note: z.string().nullable(),
  header: z.string().nullable(),
}).openapi("EchoResult");

const EchoBody = z.object({
  note: z.string().openapi({ description: "The note", example: "hi" }),
}).openapi("EchoBody");

/** The echo route's parameters, checked by the contract's own validators. */
const ECHO_PARAMS = {
  id: {
    in: "path",
    required: true,
    description: "Which echo",
    code: "INVALID_INPUT",
    message: "id is required",
    parse(raw: unknown) {
      if (typeof raw !== "string" || raw === "") throw new ApiError(this.code, this.message);
      return raw;
    },
  },
  times: {
    in: "query",
    required: false,
    description: "How many times",
    schema: { type: "integer" },
    code: "INVALID_INPUT",
    message: "times must be digits",
    parse(raw: unknown) {
      if (raw === undefined) return undefined;
      if (typeof raw === "string" && /^\d+$/.test(raw)) return raw;
      throw new ApiError(this.code, this.message);
    },
  },
  "x-tag": {
    in: "header",
    required: false,
    description: "A tag",
    code: "INVALID_INPUT",
    message: "x-tag must be a string",
    parse: (raw: unknown) => raw as string | undefined,
  },
} satisfies Params;

/** What the document says of the echo route beyond its parameters (loaded with it). */
const ECHO_OPERATIONS = {
  echoNote: {
    summary: "Echo a note",
    request: {
      body: {
        required: true,
        content: {
          "application/json": {
            schema: EchoBody,
          },
        },
      },
    },
    responses: {
      200: jsonContent(EchoResult, "The echo"),
      ...errorResponses("INVALID_INPUT", "NOT_FOUND"),
    },
  },
};

function echoApp(log: (line: string) => void = () => {}) {
  const app = createLightApp(ROOT, () => Promise.resolve({ OPERATIONS: ECHO_OPERATIONS }), {
    log,
  });
  addRoute(
    app,
    { method: "post", path: "/echo/{id}", operationId: "echoNote", params: ECHO_PARAMS },
    async (c, { id, times, "x-tag": tag }) => {
      if (id === "missing") throw new ApiError("NOT_FOUND", "No such echo");
      const { note } = await readJsonBody(c, EchoBody, 1024);
      return c.json({ id, times: Number(times ?? 1), note, header: tag ?? null }, 200);
    },
  );
  addMcp(app, ROOT, [{
    name: "echo_note",
    operationId: "echoNote",
    description: "Echo a note back, so that a test can see each argument arrive where it goes.",
  }], { maxBodyBytes: 4096 });
  return app;
}

Deno.test("a tool's input joins the path, query, header parameters and the JSON body", async () => {
  await using mcp = await mcpSession(echoApp());
  const tool = (await mcp.tools()).get("echo_note")!;
  assert.equal(tool.title, "Echo a note");
  assert.deepEqual(tool.inputSchema, {
    type: "object",
    properties: {
      id: { type: "string", description: "Which echo" },
      times: { type: "integer", description: "How many times" },
      "x-tag": { type: "string", description: "A tag" },
      note: { type: "string", description: "The note", example: "hi" },
    },
    required: ["id", "note"],
  });
  assert.equal(tool.outputSchema?.type, "object");
  assert.deepEqual(Object.keys(tool.outputSchema?.properties ?? {}), [
    "id",
    "times",
    "note",
    "header",
  ]);

  const result = await mcp.call("echo_note", { id: "a/b", times: 3, "x-tag": "t", note: "hi" });
  assert.deepEqual(result.structuredContent, { id: "a/b", times: 3, note: "hi", header: "t" });
  assert.deepEqual(JSON.parse(resultText(result)), result.structuredContent);

  const missing = assertToolError(
    await mcp.call("echo_note", { id: "missing", note: "x" }),
    "NOT_FOUND",
  );
  assert.equal(missing.error, "No such echo");
  assert.equal(
    assertToolError(
      await mcp.call("echo_note", { id: "a", times: "x", note: "x" }),
      "INVALID_INPUT",
    )
      .error,
    "times must be digits",
  );
  assertToolError(await mcp.call("echo_note", { note: "x" }), "INVALID_INPUT");
  await assert.rejects(mcp.call("no_such_tool", {}), /Unknown tool: no_such_tool/);
});

Deno.test("a tool call is logged as a request of its own, with the id of its POST /mcp", async () => {
  const lines: string[] = [];
  const res = await echoApp((line) => lines.push(line)).request("/mcp", {
    method: "POST",
    headers: {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "x-request-id": "agent-call-1",
    },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 7,
      method: "tools/call",
      params: { name: "echo_note", arguments: { id: "a", note: "n" } },
    }),
  });
  const answer = await res.json();
  assert.equal(answer.id, 7);
  assert.deepEqual(answer.result.structuredContent, { id: "a", times: 1, note: "n", header: null });
  const logged = lines.map((line) => JSON.parse(line));
  assert.deepEqual(
    logged.map((l) => [l.requestId, l.method, l.path, l.status]),
    [["agent-call-1", "POST", "/echo/a", 200], ["agent-call-1", "POST", "/mcp", 200]],
  );
});

Deno.test("GET and DELETE /mcp are 405 (stateless: no stream, no session), with the error body", async () => {
  const app = echoApp();
  for (const method of ["GET", "DELETE"]) {
    const res = await app.request("/mcp", { method });
    assert.equal(res.status, 405, method);
    assert.equal(res.headers.get("allow"), "POST");
    assert.deepEqual(await res.json(), { error: MCP_POST_ONLY, code: "INVALID_INPUT" });
  }
});

Deno.test("POST /mcp reads at most its cap (413), and a body that is not JSON-RPC is refused", async () => {
  const app = echoApp();
  const big = await app.request("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "ping",
      params: { pad: "x".repeat(5000) },
    }),
  });
  assert.equal(big.status, 413);
  assert.equal((await big.json()).code, "INVALID_INPUT");

  const garbage = await app.request("/mcp", {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream" },
    body: "{not json",
  });
  assert.equal(garbage.status, 400);
  assert.equal((await garbage.json()).error.code, -32700); // JSON-RPC parse error
});

Deno.test("the MCP SDK is imported only by the module the first POST /mcp loads", async () => {
  const offenders: string[] = [];
  for (const dir of ["functions", "shared"]) {
    for await (const file of walk(new URL(`../../../${dir}/`, import.meta.url))) {
      const text = await Deno.readTextFile(file);
      if (/from "@modelcontextprotocol\//.test(text) && !file.pathname.endsWith("/mcp_server.ts")) {
        offenders.push(file.pathname);
      }
    }
  }
  assert.deepEqual(offenders, []);
  const mcp = await Deno.readTextFile(new URL("../../../shared/contract/mcp.ts", import.meta.url));
  assert.match(mcp, /import\("\.\/mcp_server\.ts"\)/);
  assert.doesNotMatch(mcp, /^import .*mcp_server/m);
});

async function* walk(dir: URL): AsyncGenerator<URL> {
  for await (const entry of Deno.readDir(dir)) {
    if (entry.isDirectory) yield* walk(new URL(`${entry.name}/`, dir));
    else if (entry.name.endsWith(".ts")) yield new URL(entry.name, dir);
  }
}
