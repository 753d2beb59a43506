/**
 * The ai-summary experiment's app: `GET /summary?url=` summarises a page with the `AI` binding;
 * `GET /read?url=` gives the page's article as Markdown, text or sanitised HTML.
 */
import {
  type AI,
  generateSummary,
  NO_CONTENT_SUMMARY,
  truncateText,
} from "../../shared/bindings/ai/mod.ts";
import {
  addRoute,
  createLightApp,
  type ExperimentOptions,
  type LightApp,
} from "../../shared/contract/light_app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { Admission, admitted, NARROW_PAGE_ADMISSION } from "../../shared/contract/admission.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { MODEL_HEADER } from "../../shared/contract/middleware.ts";
import { type FetchPolicy, type FetchResult, safeFetch } from "../../shared/net/safe_fetch.ts";
import { enumParam, URL_PARAM } from "../../shared/contract/params.ts";
import { summaryMessages } from "./prompt.ts";
import { ROOT } from "./root.ts";

/**
 * The page reader (HTML parser, readable pass), loaded by the first `/summary` rather than
 * at start-up, where it would cost every cold start (bench/cold_start.ts).
 */
const loadReader = onFirstUse(() => import("./page_text.ts"));
/** The `/read` pipeline (reader, sanitiser, Markdown writer), loaded by the first `/read`. */
const loadRead = onFirstUse(() => import("./read.ts"));

/** The page at `url` through the safe fetch; a failed fetch or an HTTP error is `code`. */
async function fetchPage(
  url: string,
  policy: FetchPolicy,
  code: "FETCH_ERROR" | "FETCH_OR_AI_ERROR",
): Promise<FetchResult> {
  const page = await safeFetch(url, policy, { errorCode: code });
  if (page.status >= 400) {
    const status = `${page.status}${page.statusText ? ` ${page.statusText}` : ""}`;
    throw new ApiError(code, `Page responded with HTTP ${status}`);
  }
  return page;
}

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Where outbound fetches may go, and their limits. */
  fetchPolicy: FetchPolicy;
  /** Page requests at once and waiting (default: NARROW_PAGE_ADMISSION). */
  admission?: Admission;
  /** The text-generation model. */
  AI: AI;
  /**
   * Milliseconds of its own work a page's parse and read may take (tree.ts
   * DEFAULT_TREE_LIMITS.maxMs, 3000, when absent): past it, 502 naming the bound.
   */
  readBudgetMs?: number;
}

/** The formats of `/read` (read.ts's READ_FORMATS, written here so the app loads light). */
export const FORMATS = ["markdown", "text", "html"] as const;

/** `/read`'s query: the page's URL and the format of `content`. */
export const READ_QUERY = {
  url: URL_PARAM,
  format: enumParam(FORMATS, {
    description: "Format of `content`: `markdown` (default), `text` (one block a line) or " +
      "`html` (the cleaned article, sanitised)",
    example: "markdown",
    message: "format must be one of markdown, text, html",
  }),
};

/** The MCP tools of `POST /mcp`, one per main route (shared/contract/mcp.ts). */
export const MCP_TOOLS: McpTool[] = [
  {
    name: "summarize_page",
    operationId: "summarizePage",
    description: "Fetch a public web page, extract its readable text and return its title and a " +
      "short summary written by the configured language model (an extractive summary " +
      "when no model is configured). Use it to learn what a page says without reading " +
      "it all. Takes an absolute http(s) URL; private and loopback addresses are " +
      "refused.",
  },
  {
    name: "read_page",
    operationId: "readPage",
    description: "Fetch a public web page and return its main article text, without menus, " +
      "ads, related stories or comments, as Markdown (default), plain text or sanitised HTML " +
      "(`format`), with its title, byline, site name, language, publication time, excerpt " +
      "and word count. Use it to read or quote a page in full; use summarize_page for a short " +
      "summary. Takes an absolute http(s) URL; private and loopback addresses are refused.",
  },
];

/** Creates the app over its bindings (pure: tests call `app.request()`). */
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): LightApp {
  // Its response schemas (zod) load with the document, not with the first /summary.
  const app = createLightApp(ROOT, () => import("./operations.ts"), options);
  const pages = bindings.admission ?? new Admission(NARROW_PAGE_ADMISSION);
  const summaryRoute = {
    method: "get",
    path: "/summary",
    operationId: "summarizePage",
    params: { url: URL_PARAM },
  } as const;
  addRoute(app, summaryRoute, async (c, { url }) => {
    // The page and its tree are what take memory; the model call after them runs unqueued.
    const { title, text } = await admitted(c, pages, "FETCH_OR_AI_ERROR", async () => {
      // The reader loads while the page is fetched, as /analyze loads its analyzer.
      const [page, { pageText, readerLimits }] = await Promise.all([
        fetchPage(url, bindings.fetchPolicy, "FETCH_OR_AI_ERROR"),
        loadReader(),
      ]);
      return await pageText(page, readerLimits(bindings.readBudgetMs));
    });
    const body = truncateText(text.trim());
    if (body === "") return c.json({ title, summary: NO_CONTENT_SUMMARY }, 200);
    const { summary, model } = await generateSummary(bindings.AI, summaryMessages(title, body));
    c.header(MODEL_HEADER, model);
    return c.json({ title, summary }, 200);
  });
  const readRoute = {
    method: "get",
    path: "/read",
    operationId: "readPage",
    params: READ_QUERY,
  } as const;
  addRoute(app, readRoute, async (c, { url, format = "markdown" }) => {
    // The same page slots as /summary: a page and its tree take memory whichever route reads it.
    const article = await admitted(c, pages, "FETCH_ERROR", async () => {
      const [page, { readArticle, readerLimits }] = await Promise.all([
        fetchPage(url, bindings.fetchPolicy, "FETCH_ERROR"),
        loadRead(),
      ]);
      return await readArticle(url, page, format, readerLimits(bindings.readBudgetMs));
    });
    return c.json(article, 200);
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
