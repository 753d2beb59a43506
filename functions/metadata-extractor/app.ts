/** The metadata-extractor experiment's app: `GET /metadata?url=` describes a page for a link preview. */
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
import { type FetchPolicy, safeFetch } from "../../shared/net/safe_fetch.ts";
import { UrlQuery } from "../../shared/contract/validation.ts";
import { type MetadataResult, MetadataResultSchema } from "./schema.ts";
import { METADATA_EXAMPLE } from "./openapi_example.ts";
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
  /** Page requests at once and waiting (default: DEFAULT_PAGE_ADMISSION). */
  admission?: Admission;
  /**
   * Milliseconds a page's parse and reading may take (`ANALYSIS_BUDGET_MS`, default 10,000);
   * past it, 502 PARSE_ERROR naming the bound.
   */
  analysisBudgetMs?: number;
}

const metadataRoute = createRoute({
  method: "get",
  operationId: "extractMetadata",
  path: "/metadata",
  summary: "Extract link-preview metadata from a web page",
  description: "Fetches the page and returns its normalised metadata (each field from the first " +
    "source of its fallback order), every Open Graph, Twitter and JSON-LD value, icons, feeds, " +
    "oEmbed and hreflang alternates. Every URL is absolute. An upstream error page is still " +
    "described (`status` says so); an image URL is described as an image.",
  request: { query: UrlQuery },
  responses: {
    200: jsonContent(MetadataResultSchema, "The page's metadata", METADATA_EXAMPLE),
    ...errorResponses("INVALID_URL", "FETCH_ERROR", "PARSE_ERROR"),
  },
});

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
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const app = createExperimentApp(ROOT, options);
  const pages = bindings.admission ?? new Admission();
  app.openapi(metadataRoute, async (c) => {
    const { url } = c.req.valid("query");
    return await admitted(c, pages, "FETCH_ERROR", async () => {
      const page = await safeFetch(url, bindings.fetchPolicy);
      const fetchedAt = new Date().toISOString();
      const { describeResponse } = await loadExtractor();
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
