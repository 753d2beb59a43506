/**
 * What an agent pays for MCP: a `tools/call` of `analyze_page` against `GET /analyze` of the
 * same loopback page, both in process (`app.request`), alternating in rounds in the same run so
 * that machine noise hits both alike; and the first `POST /mcp` of a fresh app, which imports
 * the SDK and builds the tool schemas. Run alone: `deno task bench mcp`.
 */
import { createApp } from "../functions/dependency-analyzer/app.ts";
import { startFixtureServer } from "../tests/support/fixture_server.ts";
import { openPolicy } from "../tests/support/policy.ts";
import { type BenchRow, percentile, QUICK } from "./harness.ts";

/** Requests per round and route. */
const PER_ROUND = QUICK ? 20 : 100;
const ROUNDS = 3;
/** The most a tools/call may cost, relative to the route it calls. */
const TARGET = 1.5;
/** The most the first POST /mcp may take (SDK import, schemas from the document). */
const FIRST_CALL_TARGET_MS = 1500;

const HEADERS = {
  "content-type": "application/json",
  accept: "application/json, text/event-stream",
};

/** Runs the comparison. */
export async function run(): Promise<BenchRow[]> {
  const pages = startFixtureServer();
  try {
    const page = pages.url("/pages/nextjs.html");
    const app = createApp({ fetchPolicy: openPolicy() }, { log: () => {} });
    const direct = () => app.request(`/analyze?url=${encodeURIComponent(page)}`);
    const call = () =>
      app.request("/mcp", {
        method: "POST",
        headers: HEADERS,
        body: JSON.stringify({
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "analyze_page", arguments: { url: page } },
        }),
      });
    await (await direct()).arrayBuffer(); // the analyzer's own first load is not MCP's
    const started = performance.now();
    const first = await call();
    const firstMs = performance.now() - started;
    if (first.status !== 200) throw new Error(`POST /mcp: ${first.status} ${await first.text()}`);
    await first.body?.cancel();

    const samples = { direct: [] as number[], mcp: [] as number[] };
    const time = async (f: () => Response | Promise<Response>, into: number[]) => {
      for (let i = 0; i < PER_ROUND; i++) {
        const t = performance.now();
        const res = await f();
        await res.arrayBuffer();
        into.push(performance.now() - t);
      }
    };
    await time(direct, []); // warm-up
    await time(call, []);
    for (let r = 0; r < ROUNDS; r++) {
      await time(direct, samples.direct);
      await time(call, samples.mcp);
    }
    const base = percentile(samples.direct, 50);
    const mcp = percentile(samples.mcp, 50);
    return [
      {
        measure: "MCP tools/call analyze_page, median latency (vs GET /analyze)",
        unit: "ms",
        project: mcp,
        baseline: base,
        ratio: mcp / base,
        target: `<= ${TARGET}x`,
        pass: mcp / base <= TARGET,
        note:
          "in process, a 3 KB Next.js page on loopback; the call is the route plus JSON-RPC and the transport",
      },
      {
        measure: "MCP first POST /mcp of a fresh app (SDK import, tool schemas)",
        unit: "ms",
        project: firstMs,
        baseline: null,
        ratio: firstMs / FIRST_CALL_TARGET_MS,
        target: `< ${FIRST_CALL_TARGET_MS} ms`,
        pass: firstMs < FIRST_CALL_TARGET_MS,
        note: "paid once per instance; GET / and the other routes never load the SDK",
      },
    ];
  } finally {
    await pages.close();
  }
}

if (import.meta.main) console.table(await run());
