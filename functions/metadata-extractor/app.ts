/** The metadata-extractor experiment's app: `GET /metadata?url=` describes a page for a link preview. */
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { Admission, admitted, NARROW_PAGE_ADMISSION } from "../../shared/contract/admission.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { URL_QUERY } from "../../shared/contract/params.ts";
import { type FetchPolicy, safeFetch } from "../../shared/net/safe_fetch.ts";
import type { MetadataResult } from "./schema.ts";
import { ROOT } from "./root.ts";

/**
 * The extractor (HTML parser, entities, JSON-LD), loaded by the first `/metadata` rather
 * than at start-up, where it would cost every cold start (bench/cold_start.ts).
 */
const loadExtractor = onFirstUse(() => import("./response.ts"));

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Where outbound fetches may go, and their limits. */
  fetchPolicy: FetchPolicy;
  /** Page requests at once and waiting (default: NARROW_PAGE_ADMISSION). */
  admission?: Admission;
  /**
   * Milliseconds a page's parse and reading may take (`ANALYSIS_BUDGET_MS`, default 10,000);
   * past it, 502 PARSE_ERROR naming the bound.
   */
  analysisBudgetMs?: number;
}

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "extract_metadata",
    operationId: "extractMetadata",
    description: "Fetch a public web page and return its link-preview metadata: title, " +
      "description, image, author, publisher, dates, language, canonical URL, favicon " +
      "and feeds (each normalised from the first source of its fallback order), plus " +
      "every Open Graph, Twitter card and JSON-LD value, oEmbed and hreflang " +
      "alternates. Every URL in the answer is absolute. Use it to preview, cite or " +
      "classify a link. Takes an absolute http(s) URL; private and loopback addresses " +
      "are refused.",
  },
];

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  // Its response schemas (zod) load with the document, not with the first /metadata.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  const pages = bindings.admission ?? new Admission(NARROW_PAGE_ADMISSION);
  const route = {
    method: "get",
    path: "/metadata",
    operationId: "extractMetadata",
    params: URL_QUERY,
  } as const;
  addRoute(app, route, async (c, { url }) => {
    return await admitted(c, pages, "FETCH_ERROR", async () => {
      // The extractor loads while the page is fetched (as /analyze's analyzer does): a fresh
      // instance's first answer waits for both.
      const [page, { describeResponse }] = await Promise.all([
        safeFetch(url, bindings.fetchPolicy),
        loadExtractor(),
      ]);
      const fetchedAt = new Date().toISOString();
      const result: MetadataResult = {
        url: page.url,
        finalUrl: page.finalUrl,
        status: page.status,
        contentType: page.contentType,
        fetchedAt,
        ...await describeResponse(page, bindings.analysisBudgetMs),
      };
      return c.json(result, 200);
    });
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
