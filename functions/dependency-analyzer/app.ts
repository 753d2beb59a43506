/** The dependency-analyzer experiment's app: `GET /analyze?url=`. */
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { Admission, admitted } from "../../shared/contract/admission.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { URL_QUERY } from "../../shared/contract/params.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { ROOT } from "./root.ts";

/**
 * The analysis (HTML parser, selectors, detection rules) with its rule set and its page indexes,
 * loaded by the first `/analyze` rather than at start-up, where it would cost every cold start
 * (bench/cold_start.ts).
 */
const loadAnalyzer = onFirstUse(async () => {
  const analyzer = await import("./analyze.ts");
  await analyzer.prepareTechRules();
  return analyzer;
});

/** The safe fetch, loaded by the first `/analyze` (before the analyzer: see the route). */
const loadFetch = onFirstUse(() => import("../../shared/net/safe_fetch.ts"));

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Where outbound fetches may go, and their limits. */
  fetchPolicy: FetchPolicy;
  /** Page requests at once and waiting (default: DEFAULT_PAGE_ADMISSION). */
  admission?: Admission;
  /**
   * Milliseconds a page's parse and analysis may take (`ANALYSIS_BUDGET_MS`, default 10,000);
   * past it, 502 PARSE_ERROR naming the bound.
   */
  analysisBudgetMs?: number;
}

/** The MCP tools of `POST /mcp`, one per route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [{
  name: "analyze_page",
  operationId: "analyzePage",
  description: "Fetch a public web page and list what it depends on: scripts, stylesheets, " +
    "resource hints, iframes, import-map entries, third-party hosts, and the libraries and " +
    "frameworks detected (name, version, evidence). Given the URL of a package.json, deno.json " +
    "or import map, list its declared dependencies instead. Use it to find out what a site or " +
    "project is built with. Takes an absolute http(s) URL; private and loopback addresses are " +
    "refused.",
}];

/** Creates the app over its bindings (pure: tests call `app.request()`, and may mute the log). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  // Its response schemas (zod) load with the document, not with the first /analyze.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  const pages = bindings.admission ?? new Admission();
  const route = {
    method: "get",
    path: "/analyze",
    operationId: "analyzePage",
    params: URL_QUERY,
  } as const;
  addRoute(app, route, async (c, { url }) => {
    return await admitted(c, pages, "FETCH_ERROR", async () => {
      const fetchedAt = new Date().toISOString();
      // The page's fetch starts first: on an instance's first request, loading the analyzer
      // and its rule set then runs while the fetch waits for the network.
      const { safeFetch } = await loadFetch();
      const [res, { analyzeResponse }] = await Promise.all([
        safeFetch(url, bindings.fetchPolicy),
        loadAnalyzer(),
      ]);
      return c.json(await analyzeResponse(res, fetchedAt, bindings.analysisBudgetMs), 200);
    });
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
