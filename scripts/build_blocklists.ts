/**
 * `deno task build:blocklists`: rebuilds the screenshot service's two filter engines from
 * maintained lists that arrive through the npm registry, so nothing is fetched at run time:
 *
 * - `functions/screenshot/blocklists/ads.json` (`blockAds=true`): AdGuard Base filter
 *   (EasyList + AdGuard English) and AdGuard Tracking Protection filter;
 * - `functions/screenshot/blocklists/cookies.json` (`hideCookieBanners=true`): AdGuard Cookie
 *   Notices filter, plus the selectors that DuckDuckGo's autoconsent hides for every consent
 *   platform it knows that is not tied to one site (OneTrust, Cookiebot, Didomi, Quantcast,
 *   TrustArc, Sourcepoint, consentmanager, Usercentrics-style roots, …).
 *
 * The raw AdGuard lists come from `@adguard/dnr-rulesets` (each rule set keeps its source list),
 * the autoconsent rules from `@duckduckgo/autoconsent`; both pinned below, their tarballs fetched
 * by `npm pack` into a temporary folder and removed after (never node_modules: the rule sets
 * weigh 120 MB unpacked). Each engine is parsed and serialised by the project's own
 * `@ghostery/adblocker` (deno.json), the version the service deserialises it with, gzipped, and
 * written as JSON (`engine` in base64) with the lists' titles and dates.
 */
import { FiltersEngine } from "@ghostery/adblocker";

/** The packages the lists are read from (their tarballs only: no dependency is needed). */
const DNR_RULESETS = "@adguard/dnr-rulesets@3.3.20260320140136";
const AUTOCONSENT = "@duckduckgo/autoconsent@16.23.0";

/** AdGuard filter ids (rule set `ruleset_<id>`) of each engine. */
const ADS_FILTERS = [2, 3];
const COOKIE_FILTERS = [18];

const OUT = new URL("../functions/screenshot/blocklists/", import.meta.url);

/** One AdGuard list as its rule set carries it. */
interface RawList {
  title: string;
  updated: string;
  text: string;
}

/** Runs a command, failing loudly. */
async function run(cmd: string, args: string[], cwd: string): Promise<string> {
  const out = await new Deno.Command(cmd, { args, cwd, stderr: "inherit" }).output();
  if (!out.success) throw new Error(`${cmd} ${args.join(" ")} failed`);
  return new TextDecoder().decode(out.stdout).trim();
}

/** Unpacks `files` of a package's tarball into `dir/<name>/` (npm, the registry's own client). */
async function unpack(spec: string, files: string[], dir: string): Promise<string> {
  const tarball = (await run("npm", ["pack", "--silent", spec], dir)).split("\n").at(-1)!;
  const into = `${dir}/${tarball.replace(/\.tgz$/, "")}`;
  await Deno.mkdir(into);
  await run("tar", ["-xzf", tarball, "-C", into, ...files.map((f) => `package/${f}`)], dir);
  return `${into}/package`;
}

/** The source list kept in the metadata rule of `ruleset_<id>.json`. */
async function adguardList(dir: string, id: number): Promise<RawList> {
  const path = `${dir}/${rulesetPath(id)}`;
  const rules = JSON.parse(await Deno.readTextFile(path));
  const text: string = rules[0].metadata.rawFilterList;
  const header = (name: string) => text.match(new RegExp(`^! ${name}: (.+)$`, "m"))?.[1] ?? "";
  return { title: header("Title"), updated: header("TimeUpdated"), text };
}

function rulesetPath(id: number): string {
  return `dist/filters/declarative/ruleset_${id}/ruleset_${id}.json`;
}

/**
 * Selectors autoconsent hides on every site: those of its built-in consent platforms and of
 * its declarative rules without a URL pattern (what its own "prehide" step hides).
 */
async function autoconsentSelectors(dir: string): Promise<string[]> {
  const { default: AutoConsent } = await import(`file://${dir}/dist/autoconsent.esm.js`);
  const rules = JSON.parse(await Deno.readTextFile(`${dir}/rules/rules.json`));
  // The constructor reports its page's URL: give it one.
  const g = globalThis as unknown as { window?: unknown };
  g.window ??= { location: { href: "about:blank" } };
  const instance = new AutoConsent(() => {}, null, rules) as {
    rules: { prehideSelectors?: string[]; runContext?: { urlPattern?: string } }[];
  };
  const selectors = new Set<string>();
  for (const rule of instance.rules) {
    if (rule.runContext?.urlPattern) continue;
    for (const list of rule.prehideSelectors ?? []) {
      for (const selector of splitSelectorList(list)) selectors.add(selector);
    }
  }
  return [...selectors].sort();
}

/** Splits `a, b[x="1,2"]` at its top-level commas. */
function splitSelectorList(list: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let quote = "";
  let start = 0;
  for (let i = 0; i < list.length; i++) {
    const c = list[i];
    if (quote) {
      if (c === quote) quote = "";
    } else if (c === '"' || c === "'") quote = c;
    else if (c === "(" || c === "[") depth++;
    else if (c === ")" || c === "]") depth--;
    else if (c === "," && depth === 0) {
      out.push(list.slice(start, i).trim());
      start = i + 1;
    }
  }
  out.push(list.slice(start).trim());
  return out.filter(Boolean);
}

/**
 * AdGuard's CSS-injection rules (`domains#$#selector { declarations }`, and `#@$#` exceptions),
 * which the engine does not parse, in the engine's `:style()` form; the other lines as they
 * are. The cookie list uses them to undo the scroll lock a consent dialog leaves behind.
 */
export function withStyleRules(text: string): string {
  return text.split("\n").map((line) => {
    const m = /^([^#\s]*)#(@?)\$#(.+?)\s*\{([^{}]*)\}\s*$/.exec(line);
    if (!m) return line;
    const [, domains, exception, selector, declarations] = m;
    // `remove: true` and the like are not styles.
    if (/\bremove\s*:/.test(declarations)) return "";
    return `${domains}#${exception}#${selector}:style(${declarations.trim()})`;
  }).join("\n");
}

/** Parses the lists into one engine and writes it with its provenance. */
async function write(name: string, lists: RawList[], extra: { title: string; rules: string[] }[]) {
  const text = [
    ...lists.map((l) => withStyleRules(l.text)),
    ...extra.map((e) => e.rules.join("\n")),
  ].join("\n");
  const engine = FiltersEngine.parse(text, {
    loadCosmeticFilters: true,
    loadNetworkFilters: true,
    // Scriptlets run page code: the service only hides and blocks.
    loadExtendedSelectors: false,
    enableCompression: true,
  });
  const bytes = new Uint8Array(engine.serialize());
  const gzipped = new Uint8Array(
    await new Response(new Blob([bytes]).stream().pipeThrough(new CompressionStream("gzip")))
      .arrayBuffer(),
  );
  const body = {
    built: new Date().toISOString().slice(0, 10),
    lists: [
      ...lists.map((l) => ({ title: l.title, updated: l.updated })),
      ...extra.map((e) => ({ title: e.title, rules: e.rules.length })),
    ],
    engine: btoa(Array.from(gzipped, (b) => String.fromCharCode(b)).join("")),
  };
  await Deno.mkdir(OUT, { recursive: true });
  await Deno.writeTextFile(new URL(`${name}.json`, OUT), JSON.stringify(body) + "\n");
  console.log(`${name}.json: ${bytes.length} bytes of engine (${gzipped.length} gzipped)`);
}

if (import.meta.main) {
  const dir = await Deno.makeTempDir({ prefix: "blocklists-" });
  try {
    const adguard = await unpack(
      DNR_RULESETS,
      [...ADS_FILTERS, ...COOKIE_FILTERS].map(rulesetPath),
      dir,
    );
    const autoconsent = await unpack(
      AUTOCONSENT,
      ["dist/autoconsent.esm.js", "rules/rules.json"],
      dir,
    );
    const ads = await Promise.all(ADS_FILTERS.map((id) => adguardList(adguard, id)));
    await write("ads", ads, []);
    const cookies = await Promise.all(COOKIE_FILTERS.map((id) => adguardList(adguard, id)));
    const selectors = await autoconsentSelectors(autoconsent);
    await write("cookies", cookies, [{
      title: "DuckDuckGo autoconsent 16.23.0 (hidden CMP selectors)",
      rules: selectors.map((s) => `##${s}`),
    }]);
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
}
