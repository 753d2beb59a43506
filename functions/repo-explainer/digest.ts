/**
 * The offline digest of a repository: what it is, its languages, its stack, entry points and
 * commands as its manifests declare them, the README's first real paragraph and the top-level
 * tree. Built only from what the GitHub API already returned, with no model: the answer when
 * the `AI` binding is the embedded default, and a structured field of every answer.
 */
import type { RepoSnapshot } from "./github_api.ts";
import { type ManifestFacts, readManifest, type RunCommand } from "./manifests.ts";
import { readmeIntro } from "./readme_intro.ts";

/** What `X-AI-Model` says, and how the summary is headed, when the digest answers. */
export const DIGEST_LABEL = "digest (no model)";

/** Top-level entries listed in the digest at most. */
export const MAX_TREE_ENTRIES = 50;

/** One manifest, as the digest reports it. */
export type StackEntry = Omit<ManifestFacts, "entryPoints" | "run">;

/** The digest. */
export interface RepoDigest {
  /** The description, else the README's first real paragraph. */
  about: string | null;
  topics: string[];
  /** The primary language first, then those the manifests and top-level files imply. */
  languages: string[];
  /** Each manifest read: ecosystem, package name and version, dependencies. */
  stack: StackEntry[];
  /** Files or commands the project starts from. */
  entryPoints: string[];
  /** How to install, run, test and build it, as the manifests declare. */
  run: RunCommand[];
  /** The README's first real paragraph. */
  readmeIntro: string | null;
  /** Top-level entries (directories end in `/`). */
  tree: string[];
}

/** Languages by file extension, for top-level source files. */
const EXTENSION_LANGUAGES: Record<string, string> = {
  ts: "TypeScript",
  tsx: "TypeScript",
  mts: "TypeScript",
  js: "JavaScript",
  mjs: "JavaScript",
  cjs: "JavaScript",
  jsx: "JavaScript",
  py: "Python",
  rs: "Rust",
  go: "Go",
  rb: "Ruby",
  php: "PHP",
  java: "Java",
  kt: "Kotlin",
  swift: "Swift",
  c: "C",
  h: "C",
  cpp: "C++",
  cc: "C++",
  cs: "C#",
  sh: "Shell",
  lua: "Lua",
  zig: "Zig",
  ex: "Elixir",
  dart: "Dart",
};

/** Top-level files that are entry points by convention. */
const CONVENTIONAL_ENTRY =
  /^(?:main|index|app|server|cli|mod)\.(?:[cm]?[jt]sx?|py|go|rb|php)$|^(?:manage|__main__)\.py$/;

function languagesOf(repo: RepoSnapshot, stack: readonly ManifestFacts[]): string[] {
  const found: string[] = [];
  if (repo.language) found.push(repo.language);
  for (const m of stack) if (m.language) found.push(m.language);
  for (const file of repo.files) {
    const ext = file.match(/\.([a-z0-9]+)$/i)?.[1]?.toLowerCase();
    const language = ext && EXTENSION_LANGUAGES[ext];
    if (language) found.push(language);
  }
  return [...new Set(found)];
}

/** Builds the digest of a snapshot. */
export function buildDigest(repo: RepoSnapshot): RepoDigest {
  const stack = repo.manifests
    .map((m) => readManifest(m.name, m.content, repo.files))
    .filter((m): m is ManifestFacts => m !== null);
  const intro = readmeIntro(repo.readme);
  const conventional = repo.files.filter((f) => CONVENTIONAL_ENTRY.test(f));
  const declared = stack.flatMap((m) => m.entryPoints);
  const mentioned = new Set(declared.map((e) => e.split(" ")[0]));
  const tree = repo.files.length > MAX_TREE_ENTRIES
    ? [...repo.files.slice(0, MAX_TREE_ENTRIES), `(+${repo.files.length - MAX_TREE_ENTRIES} more)`]
    : [...repo.files];
  return {
    about: repo.description ?? intro,
    topics: [...repo.topics],
    languages: languagesOf(repo, stack),
    stack: stack.map(({ entryPoints: _e, run: _r, ...entry }) => entry),
    entryPoints: [...new Set([...declared, ...conventional.filter((f) => !mentioned.has(f))])],
    run: stack.flatMap((m) => m.run),
    readmeIntro: intro,
    tree,
  };
}

/** One stack entry in words: `npm package rocket 1.4.0 (package.json), depends on express`. */
function stackLine(s: StackEntry): string {
  const what = [
    s.ecosystem === "make" ? "make targets" : `${s.ecosystem} package`,
    s.name,
    s.version,
  ]
    .filter(Boolean).join(" ");
  const deps = s.dependencies.length > 0 ? `; depends on ${s.dependencies.join(", ")}` : "";
  const dev = s.devDependencies.length > 0 ? `; develops with ${s.devDependencies.join(", ")}` : "";
  return `${what} (${s.file})${deps}${dev}`;
}

/**
 * The digest as the `summary` text: a heading that says no model wrote it, then one labelled
 * line per part that has something to say.
 */
export function digestText(repoName: string, d: RepoDigest): string {
  const lines = [
    `${DIGEST_LABEL[0].toUpperCase()}${DIGEST_LABEL.slice(1)} of ${repoName}`,
    d.about && `What it is: ${d.about}`,
    d.topics.length > 0 && `Topics: ${d.topics.join(", ")}`,
    d.languages.length > 0 && `Languages: ${d.languages.join(", ")}`,
    d.stack.length > 0 && `Stack: ${d.stack.map(stackLine).join(" | ")}`,
    d.entryPoints.length > 0 && `Entry points: ${d.entryPoints.join(", ")}`,
    d.run.length > 0 &&
    `How to run: ${d.run.map((r) => (r.runs ? `${r.command} (${r.runs})` : r.command)).join("; ")}`,
    d.readmeIntro && d.readmeIntro !== d.about && `From the README: ${d.readmeIntro}`,
    d.tree.length > 0 && `Top level: ${d.tree.join(", ")}`,
  ];
  return lines.filter(Boolean).join("\n");
}
