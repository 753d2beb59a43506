/**
 * Which GitHub repository a URL names. Accepted: `http(s)://github.com/<owner>/<repo>` (also
 * `www.github.com`), with or without `.git`, with any trailing path, and `tree/<branch>`.
 * Owner and repository are checked against GitHub's own name rules before they are ever put
 * in an API path.
 */

/** A repository, and the branch (or tag, or commit) the URL pointed at, if any. */
export interface RepoRef {
  owner: string;
  repo: string;
  /** The `tree/<ref>` segment; null when the URL names no branch. */
  ref: string | null;
}

/** GitHub user and organisation names: letters, digits, single inner hyphens, 1–39 long. */
export const OWNER_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/;

/** Repository names: letters, digits, `.`, `_`, `-`, 1–100 long (not `.` or `..`). */
export const REPO_PATTERN = /^(?!\.{1,2}$)[A-Za-z0-9._-]{1,100}$/;

/** Branch, tag or commit names taken from `tree/<ref>` (one path segment). */
const TREE_REF_PATTERN = /^(?!.*\.\.)[A-Za-z0-9._\-+@]{1,200}$/;

/** Refs a caller may name in `ref=`: branch, tag (slashes allowed) or commit. */
export const REF_PATTERN = /^(?!\/)(?!.*\/\/)(?!.*\.\.)[A-Za-z0-9._\-+@/]{1,200}(?<!\/)$/;

const HOSTS = new Set(["github.com", "www.github.com"]);

/** First path segments that are GitHub's own pages, not owners. */
const RESERVED = new Set([
  "about",
  "apps",
  "collections",
  "customer-stories",
  "enterprise",
  "explore",
  "features",
  "issues",
  "join",
  "login",
  "marketplace",
  "new",
  "notifications",
  "orgs",
  "organizations",
  "pricing",
  "pulls",
  "search",
  "security",
  "settings",
  "site",
  "sponsors",
  "topics",
  "trending",
]);

/** The repository a (normalised, absolute) URL names; null when it names none. */
export function parseGithubRepoUrl(input: string): RepoRef | null {
  let url: URL;
  try {
    url = new URL(input);
  } catch {
    return null;
  }
  if (url.protocol !== "https:" && url.protocol !== "http:") return null;
  if (!HOSTS.has(url.hostname) || url.port !== "" || url.username || url.password) return null;
  let segments: string[];
  try {
    segments = url.pathname.split("/").filter((s) => s !== "").map(decodeURIComponent);
  } catch {
    return null; // a malformed %-escape
  }
  const [owner, rawRepo, kind, rawRef] = segments;
  if (!owner || !rawRepo || RESERVED.has(owner.toLowerCase())) return null;
  const repo = rawRepo.replace(/\.git$/i, "");
  if (!OWNER_PATTERN.test(owner) || !REPO_PATTERN.test(repo)) return null;
  let ref: string | null = null;
  if (kind === "tree" && rawRef !== undefined) {
    if (!TREE_REF_PATTERN.test(rawRef)) return null;
    ref = rawRef;
  }
  return { owner, repo, ref };
}
