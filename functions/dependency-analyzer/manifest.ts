/**
 * Package manifests: tells a package.json, a deno.json and an import map apart by name and
 * shape, and lists the dependencies each declares with their ranges.
 */
import { resolveUrl } from "../../shared/net/html.ts";
import { identifyUrl } from "./detect.ts";
import { importMapEntries, isObject, type RawImportMapEntry } from "./import_map.ts";
import type { Dependency, ManifestResult } from "./schema.ts";

/** The manifest formats the analyzer reads. */
export type ManifestFormat = ManifestResult["format"];

/** The manifest analysis without the fetch fields. */
export type ManifestAnalysis = Pick<
  ManifestResult,
  "format" | "name" | "version" | "dependencies" | "summary"
>;

/** package.json sections that map names to ranges, in the order they are reported. */
export const PACKAGE_SECTIONS = [
  "dependencies",
  "devDependencies",
  "peerDependencies",
  "optionalDependencies",
] as const;

/** Keys only a deno.json has (an import map with any of these is a Deno config). */
const DENO_KEYS = [
  "tasks",
  "compilerOptions",
  "fmt",
  "lint",
  "test",
  "exports",
  "workspace",
  "nodeModulesDir",
  "lock",
  "publish",
  "vendor",
  "unstable",
];

/** The only keys an import map may have. */
const IMPORT_MAP_KEYS = new Set(["imports", "scopes", "integrity", "$schema"]);

/**
 * The format of a parsed JSON document fetched from `url`, or null when it is none of the
 * three: the file name decides first (`package.json`, `deno.json(c)`), then the shape.
 */
export function manifestFormat(json: unknown, url: string): ManifestFormat | null {
  if (!isObject(json)) return null;
  const file = new URL(url).pathname.split("/").pop()?.toLowerCase() ?? "";
  if (file === "deno.json" || file === "deno.jsonc") return "deno.json";
  if (file === "package.json") return "package.json";
  if (PACKAGE_SECTIONS.some((s) => isObject(json[s]))) return "package.json";
  const hasMap = isObject(json.imports) || isObject(json.scopes);
  if (hasMap && DENO_KEYS.some((k) => k in json)) return "deno.json";
  if (hasMap && Object.keys(json).every((k) => IMPORT_MAP_KEYS.has(k))) return "import-map";
  if (hasMap && typeof json.name === "string") return "deno.json";
  if (typeof json.name === "string" && typeof json.version === "string") return "package.json";
  return null;
}

/** Lists what a manifest of `format` declares; relative URLs resolve against `url`. */
export function analyzeManifest(
  json: Record<string, unknown>,
  format: ManifestFormat,
  url: string,
  warn: (message: string) => void = () => {},
): ManifestAnalysis {
  const dependencies = format === "package.json"
    ? packageDependencies(json, url, warn)
    : importMapEntries({ imports: json.imports, scopes: json.scopes }, url, warn)
      .map((e) => importDependency(e));
  const bySection: Record<string, number> = {};
  const bySource: Record<string, number> = {};
  for (const d of dependencies) {
    bySection[d.section] = (bySection[d.section] ?? 0) + 1;
    bySource[d.source] = (bySource[d.source] ?? 0) + 1;
  }
  return {
    format,
    name: typeof json.name === "string" ? json.name : null,
    version: typeof json.version === "string" ? json.version : null,
    dependencies,
    summary: { dependencies: dependencies.length, bySection, bySource },
  };
}

function packageDependencies(
  json: Record<string, unknown>,
  url: string,
  warn: (message: string) => void,
): Dependency[] {
  const out: Dependency[] = [];
  for (const section of PACKAGE_SECTIONS) {
    const deps = json[section];
    if (deps === undefined) continue;
    if (!isObject(deps)) {
      warn(`"${section}" is not an object`);
      continue;
    }
    for (const [specifier, value] of Object.entries(deps)) {
      if (typeof value !== "string") {
        warn(`${section} entry "${specifier}" is not a string`);
        continue;
      }
      out.push(dependency(npmSpec(specifier, value.trim(), url), section, specifier, value, null));
    }
  }
  return out;
}

type Parsed = Pick<Dependency, "name" | "range" | "source" | "url">;

/** Reads an npm dependency value: a range, an alias, a git, tarball, file or workspace spec. */
export function npmSpec(key: string, value: string, base: string): Parsed {
  const protocol = /^([a-z+]+):/.exec(value)?.[1];
  switch (protocol) {
    case "npm":
      return { ...nameAtRange(value.slice(4)), source: "npm", url: null };
    case "workspace":
      return { name: key, range: value.slice(10) || null, source: "workspace", url: null };
    case "file":
      return { name: key, range: null, source: "file", url: null };
    case "link":
      return { name: key, range: null, source: "link", url: null };
    case "http":
    case "https":
      return { name: key, range: null, source: "url", url: resolveUrl(value, base) };
    case "github":
    case "gitlab":
    case "bitbucket":
    case "git":
    case "git+https":
    case "git+http":
    case "git+ssh":
      return { name: key, ...gitSpec(value), source: "git" };
  }
  // `owner/repo` (optionally `#ref`) is GitHub shorthand; anything else is a semver range.
  if (/^[\w.-]+\/[\w.-]+(?:#.*)?$/.test(value)) {
    return { name: key, ...gitSpec(`github:${value}`), source: "git" };
  }
  return { name: key, range: value === "" ? "*" : value, source: "npm", url: null };
}

const GIT_HOSTS: Record<string, string> = {
  github: "https://github.com/",
  gitlab: "https://gitlab.com/",
  bitbucket: "https://bitbucket.org/",
};

/** A git dependency: its repository URL and the ref (or `semver:` range) after `#`. */
function gitSpec(value: string): { range: string | null; url: string | null } {
  const [repo, ref] = value.split("#", 2);
  const range = ref ? ref.replace(/^semver:/, "") : null;
  const shorthand = /^(github|gitlab|bitbucket):(.+)$/.exec(repo);
  const url = shorthand ? GIT_HOSTS[shorthand[1]] + shorthand[2] : repo.replace(/^git\+/, "");
  return { range, url: URL.canParse(url) ? new URL(url).href : null };
}

/** `name@range` (names may be scoped: `@scope/name@range`), with any `/subpath` dropped. */
function nameAtRange(spec: string): { name: string; range: string | null } {
  const s = spec.replace(/^\//, "");
  const m = /^((?:@[^/@]+\/)?[^/@]+)(?:@([^/]*))?/.exec(s);
  if (!m) return { name: s, range: null };
  return { name: m[1], range: m[2] || null };
}

/** One import-map (or deno.json `imports`) entry as a dependency. */
function importDependency(e: RawImportMapEntry): Dependency {
  const section = e.scope === null ? "imports" : "scopes";
  const target = e.target.trim();
  let parsed: Parsed;
  if (target.startsWith("jsr:")) {
    parsed = { ...nameAtRange(target.slice(4)), source: "jsr", url: null };
  } else if (target.startsWith("npm:")) {
    parsed = { ...nameAtRange(target.slice(4)), source: "npm", url: null };
  } else if (/^(?:\/|\.\/|\.\.\/)/.test(target)) {
    parsed = { name: e.specifier, range: null, source: "local", url: e.url };
  } else {
    // A URL: a CDN path names the package and its version.
    const known = e.url ? identifyUrl(e.url) : null;
    parsed = {
      name: known?.name ?? e.specifier,
      range: known?.version ?? null,
      source: "url",
      url: e.url,
    };
  }
  return dependency(parsed, section, e.specifier, e.target, e.scope);
}

/** A dependency with its fields always in the same order. */
function dependency(
  p: Parsed,
  section: string,
  specifier: string,
  value: string,
  scope: string | null,
): Dependency {
  return {
    name: p.name,
    range: p.range,
    section,
    source: p.source,
    specifier,
    value,
    url: p.url,
    scope,
  };
}
