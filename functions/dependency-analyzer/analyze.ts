/** `/analyze` once the page is fetched: decide what the body is, analyze it. */
import { isApiError } from "../../shared/contract/errors.ts";
import type { FetchResult } from "../../shared/net/safe_fetch.ts";
import { classifyBody } from "./content.ts";
import { analyzeManifest } from "./manifest.ts";
import { analyzePage, type PageAnalysis } from "./page.ts";
import type { AnalyzeResult } from "./schema.ts";

/** The rule set's loader: the route loads it with this module (see app.ts). */
export { prepareTechRules } from "./tech_rules.ts";

/**
 * Analyzes a fetched response (the route fetches with the shared safe fetch: 400 INVALID_URL /
 * 502 FETCH_ERROR). A body that cannot be analyzed is 502 PARSE_ERROR, except on an upstream
 * error status, where it is an empty page analysis (the caller asked about the URL and learns
 * its status; an error page's format is incidental).
 */
export async function analyzeResponse(
  res: FetchResult,
  fetchedAt: string,
  budgetMs?: number,
): Promise<AnalyzeResult> {
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  const common = {
    url: res.url,
    finalUrl: res.finalUrl,
    status: res.status,
    fetchedAt,
    contentType: res.contentType,
  };
  let body;
  try {
    body = classifyBody(res);
  } catch (err) {
    if (!isApiError(err) || res.status < 400) throw err;
    warn(`Upstream answered ${res.status}; ${err.message}`);
    return { ...common, kind: "page", ...EMPTY_PAGE, warnings };
  }
  if (body.kind === "manifest") {
    return {
      ...common,
      kind: "manifest",
      ...analyzeManifest(body.json, body.format, res.finalUrl, warn),
      warnings,
    };
  }
  if (body.warning) warn(body.warning);
  const page = await analyzePage(res.text, res.finalUrl, warn, {
    headers: res.headers,
    setCookies: res.setCookies,
  }, budgetMs);
  return { ...common, kind: "page", ...page, warnings };
}

/** The analysis of a page with nothing in it. */
const EMPTY_PAGE: PageAnalysis = {
  scripts: [],
  stylesheets: [],
  preloads: [],
  iframes: [],
  importMap: [],
  hosts: [],
  libraries: [],
  summary: {
    scripts: 0,
    externalScripts: 0,
    inlineScripts: 0,
    moduleScripts: 0,
    inlineScriptBytes: 0,
    thirdPartyScripts: 0,
    thirdPartyScriptsWithoutSri: 0,
    stylesheets: 0,
    inlineStyles: 0,
    inlineStyleBytes: 0,
    preloads: 0,
    iframes: 0,
    importMapEntries: 0,
    hosts: 0,
    thirdPartyHosts: 0,
    libraries: 0,
  },
};
