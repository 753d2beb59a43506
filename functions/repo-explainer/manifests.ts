/**
 * What a repository's manifests say, read without running anything: the ecosystem, the
 * package's name and version, its dependencies, its entry points and the commands that run it.
 * JSON through JSON.parse (deno.json's comments through jsonc-parser), TOML through smol-toml,
 * the line formats (go.mod, requirements.txt, Gemfile, Makefile) by their grammar's first rules.
 * A manifest that does not parse yields what could be read (often only its ecosystem).
 */
import { parse as parseJsonc } from "jsonc-parser";
import { parse as parseToml } from "smol-toml";

/** A runnable command and where it comes from. */
export interface RunCommand {
  /** What to type, e.g. `npm run dev`. */
  command: string;
  /** What it runs, when the manifest says (`vite --port 3000`). */
  runs: string | null;
}

/** One manifest, read. */
export interface ManifestFacts {
  /** The file it was read from. */
  file: string;
  /** `npm`, `deno`, `cargo`, `go`, `python`, `composer`, `bundler` or `make`. */
  ecosystem: string;
  /** The language the ecosystem implies (null for make). */
  language: string | null;
  name: string | null;
  version: string | null;
  /** Runtime dependencies by name, as declared (at most {@link MAX_DEPENDENCIES}). */
  dependencies: string[];
  /** Development-only dependencies by name (at most {@link MAX_DEPENDENCIES}). */
  devDependencies: string[];
  /** Files or commands the package starts from (`src/index.js`, `bin rocket → cli.js`). */
  entryPoints: string[];
  /** How to install, run, test and build it, in that order. */
  run: RunCommand[];
}

/** Dependencies listed per kind at most (the rest are counted, not named). */
export const MAX_DEPENDENCIES = 15;

/** Scripts or tasks listed at most, the usual ones (dev, start, test, build) first. */
export const MAX_COMMANDS = 8;

/** Script names a reader looks for first, in this order. */
const USUAL_SCRIPTS = ["dev", "start", "serve", "test", "build", "lint", "check", "fmt"];

type Json = Record<string, unknown>;

const isObject = (v: unknown): v is Json =>
  typeof v === "object" && v !== null && !Array.isArray(v);
const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);
const keys = (v: unknown): string[] => (isObject(v) ? Object.keys(v) : []);

/** Names, cut to the cap with a count of the rest. */
function capped(names: string[]): string[] {
  const unique = [...new Set(names)];
  if (unique.length <= MAX_DEPENDENCIES) return unique;
  return [...unique.slice(0, MAX_DEPENDENCIES), `(+${unique.length - MAX_DEPENDENCIES} more)`];
}

/** Script or task names, the usual ones first, cut to {@link MAX_COMMANDS}. */
function usualFirst(names: string[]): string[] {
  const rank = (n: string) => {
    const i = USUAL_SCRIPTS.indexOf(n);
    return i === -1 ? USUAL_SCRIPTS.length : i;
  };
  return [...names].sort((a, b) => rank(a) - rank(b)).slice(0, MAX_COMMANDS);
}

/** The first file a command line names (`node src/index.js` → `src/index.js`). */
export function fileInCommand(command: string): string | null {
  const file = command.split(/\s+/).find((w) =>
    /^[\w./-]+\.(?:[cm]?[jt]sx?|py|rb|go|rs|php)$/.test(w) && !w.startsWith("-")
  );
  return file?.replace(/^\.\//, "") ?? null;
}

function empty(file: string, ecosystem: string, language: string | null): ManifestFacts {
  return {
    file,
    ecosystem,
    language,
    name: null,
    version: null,
    dependencies: [],
    devDependencies: [],
    entryPoints: [],
    run: [],
  };
}

/** The package manager a JavaScript repository uses, from `packageManager` or its lockfile. */
function packageManager(pkg: Json, files: readonly string[]): "npm" | "pnpm" | "yarn" | "bun" {
  const declared = str(pkg.packageManager)?.split("@")[0];
  if (declared === "pnpm" || declared === "yarn" || declared === "bun") return declared;
  if (files.includes("pnpm-lock.yaml")) return "pnpm";
  if (files.includes("yarn.lock")) return "yarn";
  if (files.includes("bun.lockb") || files.includes("bun.lock")) return "bun";
  return "npm";
}

function readPackageJson(file: string, text: string, files: readonly string[]): ManifestFacts {
  const pkg = JSON.parse(text);
  if (!isObject(pkg)) throw new Error("not an object");
  const deps = keys(pkg.dependencies);
  const devDeps = keys(pkg.devDependencies);
  const typescript = files.includes("tsconfig.json") || deps.includes("typescript") ||
    devDeps.includes("typescript");
  const facts = {
    ...empty(file, "npm", typescript ? "TypeScript" : "JavaScript"),
    name: str(pkg.name),
    version: str(pkg.version),
    dependencies: capped(deps),
    devDependencies: capped(devDeps),
  };
  const entries: string[] = [];
  for (const field of ["main", "module"] as const) {
    const value = str(pkg[field]);
    if (value) entries.push(`${value.replace(/^\.\//, "")} (${field})`);
  }
  if (typeof pkg.bin === "string") entries.push(`bin ${facts.name ?? ""} → ${pkg.bin}`.trim());
  for (const [bin, path] of Object.entries(isObject(pkg.bin) ? pkg.bin : {})) {
    if (typeof path === "string") entries.push(`bin ${bin} → ${path.replace(/^\.\//, "")}`);
  }
  const scripts = isObject(pkg.scripts) ? pkg.scripts : {};
  const started = str(scripts.start) && fileInCommand(String(scripts.start));
  if (started) entries.push(`${started} (scripts.start)`);
  facts.entryPoints = [...new Set(entries)];
  const pm = packageManager(pkg, files);
  const runScript = (name: string) =>
    pm === "npm"
      ? (name === "start" || name === "test" ? `npm ${name}` : `npm run ${name}`)
      : `${pm} ${name}`;
  facts.run = [
    { command: `${pm} install`, runs: null },
    ...usualFirst(Object.keys(scripts)).map((name) => ({
      command: runScript(name),
      runs: str(scripts[name]),
    })),
  ];
  return facts;
}

function readDenoJson(file: string, text: string): ManifestFacts {
  const config = parseJsonc(text, [], { allowTrailingComma: true });
  if (!isObject(config)) throw new Error("not an object");
  const imports = Object.values(isObject(config.imports) ? config.imports : {})
    .filter((v): v is string => typeof v === "string")
    .map((spec) => spec.match(/^(?:npm|jsr):\/?(@?[^@/]+(?:\/[^@/]+)?)/)?.[1] ?? null)
    .filter((n): n is string => n !== null);
  const facts = {
    ...empty(file, "deno", "TypeScript"),
    name: str(config.name),
    version: str(config.version),
    dependencies: capped(imports),
  };
  const exports = typeof config.exports === "string"
    ? [config.exports]
    : Object.values(isObject(config.exports) ? config.exports : {}).filter((v) =>
      typeof v === "string"
    ) as string[];
  const tasks = isObject(config.tasks) ? config.tasks : {};
  const taskCommand = (v: unknown) => str(v) ?? (isObject(v) ? str(v.command) : null);
  const entries = exports.map((e) => `${e.replace(/^\.\//, "")} (exports)`);
  for (const name of ["start", "dev"]) {
    const command = taskCommand(tasks[name]);
    const started = command && fileInCommand(command);
    if (started) entries.push(`${started} (task ${name})`);
  }
  facts.entryPoints = [...new Set(entries)];
  facts.run = usualFirst(Object.keys(tasks)).map((name) => ({
    command: `deno task ${name}`,
    runs: taskCommand(tasks[name]),
  }));
  return facts;
}

function readCargoToml(file: string, text: string): ManifestFacts {
  const toml = parseToml(text) as Json;
  const pkg = isObject(toml.package) ? toml.package : {};
  const facts = {
    ...empty(file, "cargo", "Rust"),
    name: str(pkg.name),
    version: str(pkg.version),
    dependencies: capped(keys(toml.dependencies)),
    devDependencies: capped(keys(toml["dev-dependencies"])),
  };
  const bins = Array.isArray(toml.bin) ? toml.bin.filter(isObject) : [];
  facts.entryPoints = bins.map((b) =>
    `bin ${str(b.name) ?? facts.name ?? ""} → ${str(b.path) ?? "src/main.rs"}`
  );
  if (isObject(toml.workspace)) {
    const members = Array.isArray(toml.workspace.members) ? toml.workspace.members : [];
    facts.entryPoints.push(`workspace of ${members.length} crates`);
  }
  facts.run = [
    { command: "cargo build", runs: null },
    ...(bins.length > 0 || !isObject(toml.lib) ? [{ command: "cargo run", runs: null }] : []),
    { command: "cargo test", runs: null },
  ];
  return facts;
}

function readGoMod(file: string, text: string, files: readonly string[]): ManifestFacts {
  const module = text.match(/^module\s+(\S+)/m)?.[1] ?? null;
  const goVersion = text.match(/^go\s+(\S+)/m)?.[1] ?? null;
  const requires: string[] = [];
  const direct = (line: string) => !/\/\/\s*indirect/.test(line);
  for (const block of text.matchAll(/^require\s*\(([\s\S]*?)^\)/gm)) {
    for (const line of block[1].split("\n")) {
      const name = line.trim().split(/\s+/)[0];
      if (name && !name.startsWith("//") && direct(line)) requires.push(name);
    }
  }
  for (const single of text.matchAll(/^require\s+([^\s(]+)\s+\S+(.*)$/gm)) {
    if (direct(single[2])) requires.push(single[1]);
  }
  const facts = {
    ...empty(file, "go", "Go"),
    name: module,
    version: goVersion && `go ${goVersion}`,
    dependencies: capped(requires),
  };
  const entries: string[] = [];
  if (files.includes("main.go")) entries.push("main.go");
  if (files.includes("cmd/")) entries.push("cmd/ (one command per folder)");
  facts.entryPoints = entries;
  facts.run = [
    { command: "go build ./...", runs: null },
    ...(files.includes("main.go") ? [{ command: "go run .", runs: null }] : []),
    { command: "go test ./...", runs: null },
  ];
  return facts;
}

/** A PEP 508 requirement's project name (`requests[socks]>=2.0; python_version<"3"` → requests). */
export function requirementName(spec: string): string | null {
  const name = spec.trim().match(/^([A-Za-z0-9][A-Za-z0-9._-]*)/)?.[1];
  return name ?? null;
}

function readPyproject(file: string, text: string): ManifestFacts {
  const toml = parseToml(text) as Json;
  const project = isObject(toml.project) ? toml.project : {};
  const tool = isObject(toml.tool) ? toml.tool : {};
  const poetry = isObject(tool.poetry) ? tool.poetry : {};
  const deps = Array.isArray(project.dependencies)
    ? project.dependencies.map((d) => requirementName(String(d)))
    : keys(poetry.dependencies).filter((d) => d.toLowerCase() !== "python");
  const optional = isObject(project["optional-dependencies"])
    ? Object.values(project["optional-dependencies"]).flatMap((list) =>
      Array.isArray(list) ? list.map((d) => requirementName(String(d))) : []
    )
    : keys(
      isObject(poetry.group) && isObject(poetry.group.dev) ? poetry.group.dev.dependencies : {},
    );
  const facts = {
    ...empty(file, "python", "Python"),
    name: str(project.name) ?? str(poetry.name),
    version: str(project.version) ?? str(poetry.version),
    dependencies: capped(deps.filter((d): d is string => !!d)),
    devDependencies: capped(optional.filter((d): d is string => !!d)),
  };
  const scripts = isObject(project.scripts)
    ? project.scripts
    : isObject(poetry.scripts)
    ? poetry.scripts
    : {};
  facts.entryPoints = Object.entries(scripts).slice(0, MAX_COMMANDS).map(([name, target]) =>
    `${name} → ${String(target)}`
  );
  const usesPoetry = Object.keys(poetry).length > 0;
  facts.run = [
    { command: usesPoetry ? "poetry install" : "pip install .", runs: null },
    ...Object.keys(scripts).slice(0, MAX_COMMANDS).map((name) => ({
      command: usesPoetry ? `poetry run ${name}` : name,
      runs: String(scripts[name]),
    })),
  ];
  return facts;
}

function readRequirements(file: string, text: string): ManifestFacts {
  const names = text.split("\n")
    .map((l) => l.replace(/#.*/, "").trim())
    .filter((l) => l && !l.startsWith("-"))
    .map(requirementName)
    .filter((n): n is string => !!n);
  return {
    ...empty(file, "python", "Python"),
    dependencies: capped(names),
    run: [{ command: `pip install -r ${file}`, runs: null }],
  };
}

function readComposerJson(file: string, text: string): ManifestFacts {
  const pkg = JSON.parse(text);
  if (!isObject(pkg)) throw new Error("not an object");
  const scripts = isObject(pkg.scripts) ? pkg.scripts : {};
  return {
    ...empty(file, "composer", "PHP"),
    name: str(pkg.name),
    version: str(pkg.version),
    dependencies: capped(keys(pkg.require).filter((d) => d !== "php" && !d.startsWith("ext-"))),
    devDependencies: capped(keys(pkg["require-dev"])),
    entryPoints: Array.isArray(pkg.bin) ? pkg.bin.filter((b) => typeof b === "string") : [],
    run: [
      { command: "composer install", runs: null },
      ...usualFirst(Object.keys(scripts)).map((name) => ({
        command: `composer run ${name}`,
        runs: typeof scripts[name] === "string" ? scripts[name] as string : null,
      })),
    ],
  };
}

function readGemfile(file: string, text: string): ManifestFacts {
  const gems = [...text.matchAll(/^\s*gem\s+["']([^"']+)["']/gm)].map((m) => m[1]);
  return {
    ...empty(file, "bundler", "Ruby"),
    dependencies: capped(gems),
    run: [{ command: "bundle install", runs: null }],
  };
}

function readMakefile(file: string, text: string): ManifestFacts {
  // Rule heads at the start of a line (`build: deps`), not variables (`CC := gcc`) or patterns.
  const targets = [...text.matchAll(/^([A-Za-z][\w.-]*)\s*:(?![=:])/gm)]
    .map((m) => m[1])
    .filter((t) => !t.startsWith("."));
  return {
    ...empty(file, "make", null),
    run: usualFirst([...new Set(targets)]).map((t) => ({ command: `make ${t}`, runs: null })),
  };
}

/**
 * Reads one manifest. `files` is the top-level listing (lockfiles and `main.go` refine the
 * answer). Unknown names give null; a manifest that does not parse gives its ecosystem only.
 */
export function readManifest(
  file: string,
  text: string,
  files: readonly string[] = [],
): ManifestFacts | null {
  const readers: Record<string, [string, string | null, () => ManifestFacts]> = {
    "package.json": ["npm", "JavaScript", () => readPackageJson(file, text, files)],
    "deno.json": ["deno", "TypeScript", () => readDenoJson(file, text)],
    "deno.jsonc": ["deno", "TypeScript", () => readDenoJson(file, text)],
    "Cargo.toml": ["cargo", "Rust", () => readCargoToml(file, text)],
    "go.mod": ["go", "Go", () => readGoMod(file, text, files)],
    "pyproject.toml": ["python", "Python", () => readPyproject(file, text)],
    "requirements.txt": ["python", "Python", () => readRequirements(file, text)],
    "composer.json": ["composer", "PHP", () => readComposerJson(file, text)],
    "Gemfile": ["bundler", "Ruby", () => readGemfile(file, text)],
    "Makefile": ["make", null, () => readMakefile(file, text)],
  };
  const reader = readers[file];
  if (!reader) return null;
  try {
    return reader[2]();
  } catch {
    return empty(file, reader[0], reader[1]);
  }
}
