/**
 * What the OpenAPI document says of ai-summary's routes beyond their declarations in app.ts:
 * summaries, descriptions and the response schemas (zod), loaded with the document
 * (shared/contract/light_app.ts), never by a `/summary` or `/read` request.
 */
import { z } from "@hono/zod-openapi";
import type { OperationDoc } from "../../shared/contract/light_app.ts";
import { errorResponses, jsonContent } from "../../shared/contract/openapi.ts";
import { FORMATS } from "./app.ts";
import { READ_EXAMPLE, SUMMARY_EXAMPLE } from "./openapi_example.ts";

const SummarySchema = z.object({
  title: z.string().nullable().openapi({ description: "Page title; null when the page has none" }),
  summary: z.string().openapi({ description: "Generated summary" }),
}).openapi("SummaryResult");

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

/** The document's entry of each operation, by operationId. */
export const OPERATIONS: Record<string, OperationDoc> = {
  summarizePage: {
    summary: "Summarise a web page",
    description: "Fetches the page, extracts its title and readable text (at most 6000 " +
      "characters go to the model) and returns the model's summary. Header `X-AI-Model` names " +
      "the model.",
    responses: {
      200: jsonContent(SummarySchema, "The page title and its summary", SUMMARY_EXAMPLE),
      ...errorResponses("INVALID_URL", "FETCH_OR_AI_ERROR"),
    },
  },
  readPage: {
    summary: "Read a web page's article",
    description: "Fetches the page and returns its main text (the article, without menus, ads, " +
      "related stories or comments: the text `/summary` sends its model) as Markdown, plain " +
      "text or sanitised HTML, with its title, byline, site name, language, date and excerpt.",
    responses: {
      200: jsonContent(
        ReadResultSchema,
        "The article and what the page says about it",
        READ_EXAMPLE,
      ),
      ...errorResponses("INVALID_URL", "INVALID_INPUT", "FETCH_ERROR", "PARSE_ERROR"),
    },
  },
};
