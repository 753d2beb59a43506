/** The devtools-inspector experiment's app: `GET /inspect?url=`. */
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

/** The inspector (HTML parser, security table), loaded by the first `/inspect`. */
const loadInspector = onFirstUse(() => import("./inspect.ts"));

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Where outbound fetches may go, and their limits. */
  fetchPolicy: FetchPolicy;
  /** Page requests at once and waiting (default: DEFAULT_PAGE_ADMISSION). */
  admission?: Admission;
  /** The clock a certificate's days left are counted from (ms); tests inject one. */
  now?: () => number;
  /**
   * Milliseconds a page's scan and security audit may take (`ANALYSIS_BUDGET_MS`, default
   * 10,000; the wait for the probes not counted); past it, 502 PARSE_ERROR naming the bound.
   */
  analysisBudgetMs?: number;
}

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "inspect_site",
    operationId: "inspectSite",
    description:
      "Fetch a public URL as a browser's network tab would and audit it: each redirect " +
      "hop, phase timings, HTTP version, response headers, cookies (names and flags, " +
      "never values), caching with a verdict, compression, a security-header audit " +
      "scored like the MDN HTTP Observatory (checks, score, grade) and statistics of " +
      "the HTML page. Use it to check a site's security headers, caching or redirects. " +
      "Takes an absolute http(s) URL; private and loopback addresses are refused.",
  },
];

/** Creates the app over its bindings (pure: tests call `app.request()`, and may mute the log). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  // Its response schemas (zod) load with the document, not with the first /inspect.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  const pages = bindings.admission ?? new Admission();
  const route = {
    method: "get",
    path: "/inspect",
    operationId: "inspectSite",
    params: URL_QUERY,
  } as const;
  addRoute(app, route, async (c, { url }) => {
    return await admitted(c, pages, "FETCH_ERROR", async () => {
      const { inspectUrl } = await loadInspector();
      const { fetchPolicy, now, analysisBudgetMs } = bindings;
      return c.json(await inspectUrl(url, fetchPolicy, now, analysisBudgetMs), 200);
    });
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
