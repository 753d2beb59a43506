/**
 * The ai-summary experiment's app: `GET /summary?url=` summarises a page with the `AI` binding;
 * `GET /read?url=` gives the page's article as Markdown, text or sanitised HTML.
 */
import { createRoute, z } from "@hono/zod-openapi";
import {
  type AI,
  generateSummary,
  NO_CONTENT_SUMMARY,
  truncateText,
} from "../../shared/bindings/ai/mod.ts";
import {
  createExperimentApp,
  type ExperimentApp,
  type ExperimentOptions,
} from "../../shared/contract/app.ts";
import { onFirstUse } from "../../shared/contract/lazy.ts";
import { Admission, admitted } from "../../shared/contract/admission.ts";
import { ApiError } from "../../shared/contract/errors.ts";
import { addMcp, type McpTool } from "../../shared/contract/mcp.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { MODEL_HEADER } from "../../shared/contract/middleware.ts";
import { type FetchPolicy, safeFetch } from "../../shared/net/safe_fetch.ts";
import { UrlQuery } from "../../shared/contract/validation.ts";
import { summaryMessages } from "./prompt.ts";
import { READ_EXAMPLE, SUMMARY_EXAMPLE } from "./openapi_example.ts";
import { ROOT } from "./root.ts";
import { SUMMARY_ADMISSION } from "./config.ts";

/**
 * The page reader (HTML parser, readable pass), loaded by the first `/summary` rather than
 * at start-up, where it would cost every cold start (bench/cold_start.ts).
 */
const loadReader = onFirstUse(() => import("./page_text.ts"));
/** The `/read` pipeline (reader, sanitiser, Markdown writer), loaded by the first `/read`. */
const loadRead = onFirstUse(() => import("./read.ts"));

/** The root information document (root.ts: start-up serves it without this module). */
export { ROOT };

/** What this experiment needs from its environment. */
export interface Bindings {
  /** Where outbound fetches may go, and their limits. */
  fetchPolicy: FetchPolicy;
  /** Page requests at once and waiting (default: SUMMARY_ADMISSION). */
  admission?: Admission;
  /** The text-generation model. */
  AI: AI;
  /**
   * Milliseconds of its own work a page's parse and read may take (tree.ts
   * DEFAULT_TREE_LIMITS.maxMs, 3000, when absent): past it, 502 naming the bound.
   */
  readBudgetMs?: number;
}

/** The response header naming the model that answered (absent when it was not called). */

const SummarySchema = z.object({
  title: z.string().nullable().openapi({ description: "Page title; null when the page has none" }),
  summary: z.string().openapi({ description: "Generated summary" }),
}).openapi("SummaryResult");

const summaryRoute = createRoute({
  method: "get",
  operationId: "summarizePage",
  path: "/summary",
  summary: "Summarise a web page",
  description: "Fetches the page, extracts its title and readable text (at most 6000 characters " +
    "go to the model) and returns the model's summary. Header `X-AI-Model` names the model.",
  request: { query: UrlQuery },
  responses: {
    200: jsonContent(SummarySchema, "The page title and its summary", SUMMARY_EXAMPLE),
    ...errorResponses("INVALID_URL", "FETCH_OR_AI_ERROR"),
  },
});

/** The formats of `/read` (read.ts's READ_FORMATS, written here so the schema loads light). */
const FORMATS = ["markdown", "text", "html"] as const;

/** `/read`'s query: the page's URL and the format of `content`. */
export const ReadQuery = UrlQuery.extend({
  format: z.enum(FORMATS, { error: "format must be one of markdown, text, html" }).optional()
    .openapi({
      param: { name: "format", in: "query", required: false },
      description: "Format of `content`: `markdown` (default), `text` (one block a line) or " +
        "`html` (the cleaned article, sanitised)",
      example: "markdown",
    }),
});

/** `/read`'s 200 body. */
export const ReadResultSchema = z.object({
  url: z.string().openapi({ description: "The URL asked for (normalised)" }),
  finalUrl: z.string().openapi({ description: "The URL read, after redirects" }),
  title: z.string().nullable().openapi({ description: "Article title; null when none" }),
  byline: z.string().nullable().openapi({
    description: "Author(s); null when the page names none",
  }),
  siteName: z.string().nullable().openapi({ description: "The site or publisher's name" }),
  lang: z.string().nullable().openapi({ description: "The page's declared language" }),
  publishedTime: z.string().nullable().openapi({
    description: "Publication time as the page gives it (JSON-LD, article:published_time)",
  }),
  excerpt: z.string().nullable().openapi({
    description: "The page's description, else the article's first paragraph",
  }),
  wordCount: z.number().int().openapi({ description: "Words in the article's text" }),
  format: z.enum(FORMATS).openapi({ description: "Format of `content`" }),
  content: z.string().openapi({ description: "The article in `format`" }),
}).openapi("ReadResult");

const readRoute = createRoute({
  method: "get",
  operationId: "readPage",
  path: "/read",
  summary: "Read a web page's article",
  description: "Fetches the page and returns its main text (the article, without menus, ads, " +
    "related stories or comments: the text `/summary` sends its model) as Markdown, plain " +
    "text or sanitised HTML, with its title, byline, site name, language, date and excerpt.",
  request: { query: ReadQuery },
  responses: {
    200: jsonContent(
      ReadResultSchema,
      "The article and what the page says about it",
      READ_EXAMPLE,
    ),
    ...errorResponses("INVALID_URL", "INVALID_INPUT", "FETCH_ERROR", "PARSE_ERROR"),
  },
});

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
export function createApp(bindings: Bindings, options: ExperimentOptions = {}): ExperimentApp {
  const app = createExperimentApp(ROOT, options);
  const pages = bindings.admission ?? new Admission(SUMMARY_ADMISSION);
  app.openapi(summaryRoute, async (c) => {
    const { url } = c.req.valid("query");
    // The page and its tree are what take memory; the model call after them runs unqueued.
    const { title, text } = await admitted(c, pages, "FETCH_OR_AI_ERROR", async () => {
      const page = await safeFetch(url, bindings.fetchPolicy, { errorCode: "FETCH_OR_AI_ERROR" });
      if (page.status >= 400) {
        throw new ApiError(
          "FETCH_OR_AI_ERROR",
          `Page responded with HTTP ${page.status}${page.statusText ? ` ${page.statusText}` : ""}`,
        );
      }
      const { pageText, readerLimits } = await loadReader();
      return await pageText(page, readerLimits(bindings.readBudgetMs));
    });
    const body = truncateText(text.trim());
    if (body === "") return c.json({ title, summary: NO_CONTENT_SUMMARY }, 200);
    const { summary, model } = await generateSummary(bindings.AI, summaryMessages(title, body));
    c.header(MODEL_HEADER, model);
    return c.json({ title, summary }, 200);
  });
  app.openapi(readRoute, async (c) => {
    const { url, format = "markdown" } = c.req.valid("query");
    // The same page slots as /summary: a page and its tree take memory whichever route reads it.
    const article = await admitted(c, pages, "FETCH_ERROR", async () => {
      const page = await safeFetch(url, bindings.fetchPolicy);
      if (page.status >= 400) {
        throw new ApiError(
          "FETCH_ERROR",
          `Page responded with HTTP ${page.status}${page.statusText ? ` ${page.statusText}` : ""}`,
        );
      }
      const { readArticle, readerLimits } = await loadRead();
      return await readArticle(url, page, format, readerLimits(bindings.readBudgetMs));
    });
    return c.json(article, 200);
  });
  addMcp(app, ROOT, MCP_TOOLS);
  return app;
}
