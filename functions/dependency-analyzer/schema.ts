/**
 * The shape of `GET /analyze` results: zod schemas (they document the route in
 * /openapi.json) and the TypeScript types inferred from them.
 */
import { z } from "@hono/zod-openapi";

const host = z.string().nullable().openapi({
  description: "Host name (no port) of the URL; null for inline content or non-http(s) URLs",
});
const thirdParty = z.boolean().openapi({
  description: "True when the host's registrable domain differs from the page's",
});

/** One `<script>` that the browser would run (data blocks such as JSON are left out). */
export const ScriptSchema = z.object({
  src: z.string().nullable().openapi({ description: "Absolute URL; null for an inline script" }),
  inline: z.boolean(),
  size: z.number().int().nullable().openapi({
    description: "UTF-8 bytes of an inline script's text; null for an external one",
  }),
  type: z.string().nullable().openapi({ description: "The `type` attribute as written" }),
  module: z.boolean(),
  async: z.boolean(),
  defer: z.boolean(),
  nomodule: z.boolean(),
  integrity: z.string().nullable(),
  crossorigin: z.string().nullable(),
  host,
  thirdParty,
}).openapi("Script");

/** One `<link rel="stylesheet">` or `<style>` block. */
export const StylesheetSchema = z.object({
  href: z.string().nullable().openapi({ description: "Absolute URL; null for a `<style>` block" }),
  inline: z.boolean(),
  size: z.number().int().nullable().openapi({ description: "UTF-8 bytes of a `<style>` block" }),
  media: z.string().nullable(),
  integrity: z.string().nullable(),
  crossorigin: z.string().nullable(),
  host,
  thirdParty,
}).openapi("Stylesheet");

/** One resource hint: preload, modulepreload, prefetch, preconnect or dns-prefetch. */
export const PreloadSchema = z.object({
  href: z.string(),
  rel: z.string().openapi({ description: "The hint tokens of `rel`, space-separated" }),
  as: z.string().nullable(),
  type: z.string().nullable(),
  crossorigin: z.string().nullable(),
  host,
  thirdParty,
}).openapi("Preload");

/** One `<iframe src>`. */
export const IframeSchema = z.object({
  src: z.string(),
  title: z.string().nullable(),
  loading: z.string().nullable(),
  sandbox: z.string().nullable().openapi({ description: '`""` when present without tokens' }),
  host,
  thirdParty,
}).openapi("Iframe");

/** One mapping of an import map. */
export const ImportMapEntrySchema = z.object({
  specifier: z.string().openapi({ description: "The key as written (bare or URL-like)" }),
  url: z.string().nullable().openapi({ description: "Absolute target; null when unresolvable" }),
  scope: z.string().nullable().openapi({ description: "Absolute scope URL; null for `imports`" }),
  host,
  thirdParty,
}).openapi("ImportMapEntry");

/** Requests to one host, by kind. */
export const HostSchema = z.object({
  host: z.string(),
  thirdParty,
  total: z.number().int(),
  counts: z.object({
    scripts: z.number().int(),
    stylesheets: z.number().int(),
    preloads: z.number().int(),
    iframes: z.number().int(),
    importMap: z.number().int(),
  }),
}).openapi("Host");

/** Why a library was detected: the rule that fired and what it matched. */
export const EvidenceSchema = z.object({
  rule: z.string().openapi({
    description:
      "The rule that matched: a rule id from rules.ts, `webappanalyzer: <pattern>` for the technology rule set, or `implied`",
  }),
  source: z.string().openapi({
    description:
      "Where it matched: `url`, `scriptSrc`, `html`, `scripts` (inline), `css` (inline), `dom`, `meta:<name>`, `headers:<name>`, `cookies:<name>`, or `implies`",
  }),
  value: z.string().openapi({
    description: "The URL, attribute or text that matched (or the implying technology)",
  }),
}).openapi("Evidence");

/** A detected library, framework or platform. */
export const LibrarySchema = z.object({
  name: z.string().openapi({
    description: "The technology's name as in the webappanalyzer rule set (`jQuery`, `Next.js`)",
  }),
  version: z.string().nullable(),
  package: z.string().nullable().openapi({
    description: "The npm package name, when the page names it (CDN URLs, markup rules)",
  }),
  categories: z.array(z.string()).openapi({
    description: "The rule set's categories (`JavaScript libraries`, `Tag managers`…)",
  }),
  confidence: z.number().int().min(0).max(100),
  evidence: z.array(EvidenceSchema),
}).openapi("Library");

const common = {
  url: z.string().openapi({ description: "The URL as requested (normalised)" }),
  finalUrl: z.string().openapi({ description: "The URL after redirects" }),
  status: z.number().int().openapi({ description: "Upstream HTTP status" }),
  fetchedAt: z.string().openapi({ description: "ISO 8601 time of the fetch" }),
  contentType: z.string().nullable(),
  warnings: z.array(z.string()),
};

/** The analysis of an HTML page. */
export const PageResultSchema = z.object({
  ...common,
  kind: z.literal("page"),
  scripts: z.array(ScriptSchema),
  stylesheets: z.array(StylesheetSchema),
  preloads: z.array(PreloadSchema),
  iframes: z.array(IframeSchema),
  importMap: z.array(ImportMapEntrySchema),
  hosts: z.array(HostSchema),
  libraries: z.array(LibrarySchema),
  summary: z.object({
    scripts: z.number().int(),
    externalScripts: z.number().int(),
    inlineScripts: z.number().int(),
    moduleScripts: z.number().int(),
    inlineScriptBytes: z.number().int(),
    thirdPartyScripts: z.number().int(),
    thirdPartyScriptsWithoutSri: z.number().int(),
    stylesheets: z.number().int(),
    inlineStyles: z.number().int(),
    inlineStyleBytes: z.number().int(),
    preloads: z.number().int(),
    iframes: z.number().int(),
    importMapEntries: z.number().int(),
    hosts: z.number().int(),
    thirdPartyHosts: z.number().int(),
    libraries: z.number().int(),
  }),
}).openapi("PageAnalysis");

/** Where a declared dependency comes from. */
export const DependencySourceSchema = z.enum([
  "npm",
  "jsr",
  "url",
  "git",
  "file",
  "link",
  "workspace",
  "local",
]);

/** One declared dependency of a manifest. */
export const DependencySchema = z.object({
  name: z.string().openapi({ description: "Package name (the alias target for `npm:` aliases)" }),
  range: z.string().nullable().openapi({
    description: "Version range (or git ref) as declared; null when none applies",
  }),
  section: z.string().openapi({
    description: "`dependencies`, `devDependencies`, `peerDependencies`, " +
      "`optionalDependencies`, `imports` or `scopes`",
  }),
  source: DependencySourceSchema,
  specifier: z.string().openapi({ description: "The key as written in the manifest" }),
  value: z.string().openapi({ description: "The value as written in the manifest" }),
  url: z.string().nullable().openapi({
    description: "Absolute URL for URL, git and local entries",
  }),
  scope: z.string().nullable().openapi({ description: "Absolute scope URL of a `scopes` entry" }),
}).openapi("Dependency");

/** The analysis of a package manifest or import map. */
export const ManifestResultSchema = z.object({
  ...common,
  kind: z.literal("manifest"),
  format: z.enum(["package.json", "deno.json", "import-map"]),
  name: z.string().nullable(),
  version: z.string().nullable(),
  dependencies: z.array(DependencySchema),
  summary: z.object({
    dependencies: z.number().int(),
    bySection: z.record(z.string(), z.number().int()),
    bySource: z.record(z.string(), z.number().int()),
  }),
}).openapi("ManifestAnalysis");

/** Either analysis, told apart by `kind`. */
export const AnalyzeResultSchema = z.discriminatedUnion("kind", [
  PageResultSchema,
  ManifestResultSchema,
]).openapi("AnalyzeResult");

/** A script entry. */
export type Script = z.infer<typeof ScriptSchema>;
/** A stylesheet entry. */
export type Stylesheet = z.infer<typeof StylesheetSchema>;
/** A resource-hint entry. */
export type Preload = z.infer<typeof PreloadSchema>;
/** An iframe entry. */
export type Iframe = z.infer<typeof IframeSchema>;
/** An import-map entry. */
export type ImportMapEntry = z.infer<typeof ImportMapEntrySchema>;
/** A per-host tally. */
export type HostEntry = z.infer<typeof HostSchema>;
/** A detected library. */
export type Library = z.infer<typeof LibrarySchema>;
/** One piece of evidence. */
export type Evidence = z.infer<typeof EvidenceSchema>;
/** A declared dependency. */
export type Dependency = z.infer<typeof DependencySchema>;
/** Where a dependency comes from. */
export type DependencySource = z.infer<typeof DependencySourceSchema>;
/** The page analysis. */
export type PageResult = z.infer<typeof PageResultSchema>;
/** The manifest analysis. */
export type ManifestResult = z.infer<typeof ManifestResultSchema>;
/** Either analysis. */
export type AnalyzeResult = z.infer<typeof AnalyzeResultSchema>;
