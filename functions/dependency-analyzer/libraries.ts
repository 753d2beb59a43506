/**
 * One list of libraries from the two detectors: the technology rule set (names, categories,
 * breadth) and the project's own rules (exact versions from CDN URLs and file names, npm
 * package names, Next.js/Nuxt/SvelteKit markup). Names follow the rule set; a name the rule
 * set does not know is kept only when a trusted rule gave it (a CDN path names a real npm
 * package), so site bundles (`wf-…-modern.js`, `desktop-v1.js`) and theme names from
 * `<meta name=generator>` are not reported as libraries.
 */
import type { RuleLibrary } from "./detect.ts";
import type { Library } from "./schema.ts";
import type { TechDetection } from "./tech_detect.ts";
import { foldName, type TechRules } from "./tech_rules.ts";

/** Project rules whose names are guesses from a file name or free text. */
const GUESSING_RULES = new Set(["versioned-file-name", "generator-other", "implied"]);

/**
 * Categories of things that ship as script or style files. A name guessed from a file name
 * (`base.162.0.js`) only counts when the rule set's technology of that name is one of these:
 * the e-commerce platform "Base" is not in `base.162.0.js`.
 */
const FILE_CATEGORIES = new Set([
  "JavaScript libraries",
  "JavaScript frameworks",
  "JavaScript graphics",
  "UI frameworks",
  "Font scripts",
  "Video players",
  "Maps",
  "Rich text editors",
  "Photo galleries",
  "Mobile frameworks",
  "Widgets",
  "Accessibility",
]);

/** npm names the rule set spells differently than by folding (`nextjs` ~ `next` works). */
const RULESET_NAME: Readonly<Record<string, string>> = {
  "@angular/core": "Angular",
  "angular": "AngularJS",
  "@sveltejs/kit": "SvelteKit",
  "@remix-run/react": "Remix",
  "webfontloader": "Google Font API",
  "Google Fonts": "Google Font API",
  "font-awesome": "Font Awesome",
  "@fortawesome/fontawesome-free": "Font Awesome",
};

/** An npm package name (lowercase, optionally scoped). */
const NPM_NAME = /^(?:@[a-z0-9][a-z0-9._~-]*\/)?[a-z0-9][a-z0-9._~-]*$/;

/** The rule set's name for a project-rule name, or null when it has none. */
export function rulesetName(rules: TechRules, name: string): string | null {
  const explicit = RULESET_NAME[name];
  if (explicit && rules.indexOf(explicit) !== undefined) return explicit;
  const t = rules.indexOfFolded(foldName(name));
  return t === undefined ? null : rules.name(t);
}

/** Merges both detectors' findings into the result's `libraries`, sorted by name. */
export function mergeLibraries(
  rules: TechRules,
  techs: readonly TechDetection[],
  own: readonly RuleLibrary[],
): Library[] {
  const byName = new Map<string, Library[]>();
  const categoriesOf = (name: string) => {
    const t = rules.indexOf(name);
    return t === undefined ? [] : rules.tech(t).categories;
  };
  for (const lib of own) {
    let known = rulesetName(rules, lib.name);
    const trusted = lib.evidence.some((e) => !GUESSING_RULES.has(e.rule));
    const fromFileName = lib.evidence.every((e) => e.rule === "versioned-file-name");
    if (known && fromFileName && !categoriesOf(known).some((c) => FILE_CATEGORIES.has(c))) {
      known = null;
    }
    if (!known && !trusted) continue;
    const name = known ?? lib.name;
    const entries = byName.get(name) ?? [];
    const same = entries.find((e) => e.version === lib.version) ??
      (lib.version === null ? entries[0] : undefined);
    if (same) {
      same.evidence.push(...lib.evidence);
      same.confidence = Math.max(same.confidence, lib.confidence);
      same.package ??= NPM_NAME.test(lib.name) ? lib.name : null;
    } else {
      entries.push({
        name,
        version: lib.version,
        package: NPM_NAME.test(lib.name) ? lib.name : null,
        categories: categoriesOf(name),
        confidence: lib.confidence,
        evidence: [...lib.evidence],
      });
    }
    byName.set(name, entries);
  }
  for (const tech of techs) {
    const entries = byName.get(tech.name);
    if (!entries) {
      byName.set(tech.name, [{
        name: tech.name,
        version: tech.version || null,
        package: null,
        categories: tech.categories,
        confidence: tech.confidence,
        evidence: tech.evidence,
      }]);
      continue;
    }
    // The project's version (from a CDN path or file name) stands; the rule set's joins the
    // entry of the same version, or the first one, as more evidence.
    const target = entries.find((e) => e.version === (tech.version || null)) ?? entries[0];
    if (target.version === null && tech.version) target.version = tech.version;
    target.confidence = Math.min(100, target.confidence + tech.confidence);
    target.evidence.push(...tech.evidence);
  }
  return [...byName.values()].flat().sort((a, b) =>
    compare(a.name.toLowerCase(), b.name.toLowerCase()) || compare(a.version ?? "", b.version ?? "")
  );
}

function compare(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}
