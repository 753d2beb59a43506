/** The dependency-analyzer experiment's app: `GET /analyze?url=`. */
import { createRoute } from "@hono/zod-openapi";
import {
  createExperimentApp,
  type ExperimentApp,
  type ExperimentOptions,
} from "../../shared/contract/app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { Admission, admitted } from "../../shared/contract/admission.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { UrlQuery } from "../../shared/contract/validation.ts";
import { AnalyzeResultSchema } from "./schema.ts";
import { ANALYZE_EXAMPLE } from "./openapi_example.ts";
import { ROOT } from "./root.ts";

/**
 * The analysis (HTML parser, selectors, detection rules), loaded by the first `/analyze`
 * rather than at start-up, where it would cost every cold start (bench/cold_start.ts).
 */
const loadAnalyzer = onFirstUse(() => import("./analyze.ts"));

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

/** `GET /analyze`: the route declaration (request and response schemas). */
export const analyzeRoute = createRoute({
  method: "get",
  operationId: "analyzePage",
  path: "/analyze",
  summary: "What a page (or a package manifest) depends on",
  description:
    "Fetches the URL and lists its scripts, stylesheets, resource hints, iframes, import-map " +
    'entries, hosts and detected libraries (`kind: "page"`), or, for a package.json, ' +
    'deno.json or import map, its declared dependencies (`kind: "manifest"`).',
  request: { query: UrlQuery },
  responses: {
    200: jsonContent(
      AnalyzeResultSchema,
      "The analysis; `status` is the upstream status",
      ANALYZE_EXAMPLE,
    ),
    ...errorResponses("INVALID_URL", "FETCH_ERROR", "PARSE_ERROR"),
  },
});

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
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const app = createExperimentApp(ROOT, options);
  const pages = bindings.admission ?? new Admission();
  app.openapi(analyzeRoute, async (c) => {
    const { url } = c.req.valid("query");
    return await admitted(c, pages, "FETCH_ERROR", async () => {
      const { analyzeUrl } = await loadAnalyzer();
      return c.json(await analyzeUrl(url, bindings.fetchPolicy, bindings.analysisBudgetMs), 200);
    });
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
