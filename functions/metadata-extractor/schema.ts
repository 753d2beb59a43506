/**
 * The shape of a `/metadata` result, as zod schemas: the route declares them for OpenAPI and
 * the extractor's types are inferred from them, so the document and the code cannot drift.
 */
import { z } from "@hono/zod-openapi";

/** The preview image: an absolute URL with whatever size and alt text the page declares. */
export const ImageSchema = z.object({
  url: z.string().openapi({ description: "Absolute URL of the image" }),
  width: z.number().nullable().openapi({
    description: "Declared (or, for an image URL, read) width in px",
  }),
  height: z.number().nullable().openapi({
    description: "Declared (or, for an image URL, read) height in px",
  }),
  alt: z.string().nullable().openapi({ description: "Alternative text" }),
}).openapi("MetadataImage");

/** One `<link>` icon. */
export const IconSchema = z.object({
  url: z.string(),
  rel: z.string().openapi({
    description: "The rel tokens, lowercased, e.g. `icon`, `apple-touch-icon`",
  }),
  sizes: z.string().nullable(),
  type: z.string().nullable(),
}).openapi("MetadataIcon");

/** One feed link (RSS, Atom or JSON Feed). */
export const FeedSchema = z.object({
  url: z.string(),
  format: z.enum(["rss", "atom", "json"]),
  type: z.string(),
  title: z.string().nullable(),
}).openapi("MetadataFeed");

/** The oEmbed discovery link a client would call (JSON preferred over XML). */
export const OEmbedSchema = z.object({
  url: z.string(),
  format: z.enum(["json", "xml"]),
  title: z.string().nullable(),
}).openapi("MetadataOEmbed");

/** One language alternate (`<link rel="alternate" hreflang>`). */
export const AlternateSchema = z.object({
  hreflang: z.string(),
  url: z.string(),
}).openapi("MetadataAlternate");

/** Every value of a tag family, keyed by property; a repeated property lists its values in order. */
export const TagGroupSchema = z.record(z.string(), z.union([z.string(), z.array(z.string())]));

/** What `extractMetadata` returns: everything about the page except how it was fetched. */
export const PageMetadataSchema = z.object({
  title: z.string().nullable(),
  description: z.string().nullable(),
  canonical: z.string().nullable(),
  lang: z.string().nullable(),
  siteName: z.string().nullable(),
  type: z.string().nullable().openapi({
    description:
      "og:type, else the JSON-LD type, else `website`; for non-HTML: image, video, audio, json, text",
  }),
  author: z.string().nullable(),
  publishedTime: z.string().nullable().openapi({
    description:
      "When the page was published: ISO 8601 in UTC (what the page wrote is in rawDates)",
    example: "2019-01-07T20:37:00.000Z",
  }),
  modifiedTime: z.string().nullable().openapi({
    description: "When the page was last modified: ISO 8601 in UTC",
  }),
  date: z.string().nullable().openapi({
    description: "modifiedTime, else publishedTime (metascraper's `date`)",
  }),
  rawDates: z.object({
    published: z.string().nullable(),
    modified: z.string().nullable(),
  }).openapi({ description: "The dates as the page wrote them (e.g. `April 06, 2016 12:00 ET`)" }),
  keywords: z.array(z.string()),
  themeColor: z.string().nullable(),
  image: ImageSchema.nullable(),
  logo: z.string().nullable(),
  icons: z.array(IconSchema),
  favicon: z.string().openapi({
    description: "The best icon; `/favicon.ico` when none is declared",
  }),
  openGraph: TagGroupSchema.openapi({
    description: "Every og:* (and article:*, book:*, profile:*, music:*, video:*) tag",
  }),
  twitter: TagGroupSchema.openapi({ description: "Every twitter:* tag" }),
  jsonLd: z.array(z.unknown()).openapi({
    description: "Parsed JSON-LD blocks (relative URLs made absolute); broken blocks skipped",
  }),
  feeds: z.array(FeedSchema),
  oembed: OEmbedSchema.nullable(),
  alternates: z.array(AlternateSchema),
  warnings: z.array(z.string()).openapi({
    description: "What was skipped, e.g. a broken JSON-LD block",
  }),
}).openapi("PageMetadata");

/** The `/metadata` response: how the page was fetched, then its metadata. */
export const MetadataResultSchema = z.object({
  url: z.string().openapi({ description: "The URL as requested (normalised)" }),
  finalUrl: z.string().openapi({ description: "The URL after redirects" }),
  status: z.number().int().openapi({
    description: "Upstream HTTP status (a 404 page is still described)",
  }),
  contentType: z.string().nullable().openapi({
    description: "Upstream media type, without parameters",
  }),
  fetchedAt: z.string().openapi({ description: "When the fetch completed (ISO 8601)" }),
}).extend(PageMetadataSchema.shape).openapi("MetadataResult");

/** The extractor's result. */
export type PageMetadata = z.infer<typeof PageMetadataSchema>;
/** The preview image. */
export type ImageValue = z.infer<typeof ImageSchema>;
/** One icon link. */
export type Icon = z.infer<typeof IconSchema>;
/** One feed link. */
export type Feed = z.infer<typeof FeedSchema>;
/** The oEmbed discovery link. */
export type OEmbed = z.infer<typeof OEmbedSchema>;
/** One hreflang alternate. */
export type Alternate = z.infer<typeof AlternateSchema>;
/** A family of meta tags. */
export type TagGroup = z.infer<typeof TagGroupSchema>;
/** The full `/metadata` response. */
export type MetadataResult = z.infer<typeof MetadataResultSchema>;
