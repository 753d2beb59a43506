/**
 * Reads what explains a repository through the GitHub REST API: its metadata, README,
 * top-level listing and main manifest. `GITHUB_API_URL` is a configured, trusted API (not a
 * host a user named), so plain fetch is used, bounded in time and bytes.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import { describeFetchFailure } from "../../shared/net/fetch_failure.ts";
import type { GithubConfig } from "./github_config.ts";
import type { RepoRef } from "./github_url.ts";

/** The API version the requests ask for. */
export const GITHUB_API_VERSION = "2022-11-28";

const USER_AGENT = "EdgeUtilityServices-repo-explainer/1.0";

/**
 * Manifests looked for at the top level, the first present being the main one, in the order
 * the model's prompt prefers them (manifests.ts reads each; kept here so that reading the
 * repository does not load that module's TOML and JSONC parsers).
 */
export const MANIFESTS = [
  "package.json",
  "deno.json",
  "deno.jsonc",
  "pyproject.toml",
  "Cargo.toml",
  "go.mod",
  "requirements.txt",
  "composer.json",
  "Gemfile",
  "Makefile",
] as const;

/** Manifests read at most (in {@link MANIFESTS} order), one request each, in parallel. */
export const MAX_MANIFESTS = 4;

/** Bytes of a README or manifest read at most (only the first few thousand characters are used). */
export const MAX_TEXT_FILE_BYTES = 64 * 1024;

/** What the explanation is built from. */
export interface RepoSnapshot {
  /** `owner/name` as GitHub spells it (after any rename). */
  fullName: string;
  description: string | null;
  language: string | null;
  stars: number;
  topics: string[];
  /** SPDX id of the licence, else its name; null when none is detected. */
  license: string | null;
  defaultBranch: string;
  /** Top-level entries; directories end in `/`. */
  files: string[];
  /** The README's raw text; null when there is none. */
  readme: string | null;
  /** The main manifest (the first of {@link MANIFESTS} present), when there is one. */
  manifest: { name: string; content: string } | null;
  /** Every manifest read (at most {@link MAX_MANIFESTS}), the main one first. */
  manifests: { name: string; content: string }[];
}

/** Limits of one snapshot: the whole read shares one deadline. */
export interface ReadLimits {
  timeoutMs: number;
  /** Cap on a JSON response's bytes. */
  maxBytes: number;
}

interface ContentEntry {
  name: string;
  type: string;
}

/**
 * Reads a repository. A missing repository is 404 NOT_FOUND "Repository not found" (a missing
 * `tree/<ref>`, "Branch not found"); a rate limit, a timeout or any other failure is
 * 502 FETCH_OR_AI_ERROR with what went wrong.
 */
export async function readRepository(
  config: GithubConfig,
  target: RepoRef,
  limits: ReadLimits,
): Promise<RepoSnapshot> {
  const api = new GithubApi(config, limits);
  const base = `/repos/${encodeURIComponent(target.owner)}/${encodeURIComponent(target.repo)}`;
  const query = target.ref ? `?ref=${encodeURIComponent(target.ref)}` : "";

  const meta = await api.json(base);
  if (meta === null) throw new ApiError("NOT_FOUND", "Repository not found");
  const [readme, listing] = await Promise.all([
    api.raw(`${base}/readme${query}`),
    api.json(`${base}/contents${query}`),
  ]);
  if (listing === null && target.ref) throw new ApiError("NOT_FOUND", "Branch not found");
  // No listing on the default branch: an empty repository.
  const entries: ContentEntry[] = Array.isArray(listing)
    ? listing.filter((e): e is ContentEntry => typeof e?.name === "string")
    : [];
  const names = new Set(entries.filter((e) => e.type === "file").map((e) => e.name));
  const present = MANIFESTS.filter((m) => names.has(m)).slice(0, MAX_MANIFESTS);
  const texts = await Promise.all(
    present.map((name) => api.raw(`${base}/contents/${encodeURIComponent(name)}${query}`)),
  );
  const manifests: { name: string; content: string }[] = [];
  present.forEach((name, i) => {
    const content = texts[i];
    if (content !== null) manifests.push({ name, content });
  });

  const m = meta as Record<string, unknown>;
  const license = m.license as { spdx_id?: unknown; name?: unknown } | null | undefined;
  const spdx = typeof license?.spdx_id === "string" && license.spdx_id !== "NOASSERTION"
    ? license.spdx_id
    : null;
  return {
    fullName: str(m.full_name) ?? `${target.owner}/${target.repo}`,
    description: str(m.description),
    language: str(m.language),
    stars: typeof m.stargazers_count === "number" ? m.stargazers_count : 0,
    topics: Array.isArray(m.topics) ? m.topics.filter((t) => typeof t === "string") : [],
    license: spdx ?? str(license?.name),
    defaultBranch: str(m.default_branch) ?? "",
    files: entries.map((e) => (e.type === "dir" ? `${e.name}/` : e.name)),
    readme,
    manifest: manifests[0] ?? null,
    manifests,
  };
}

/** A non-empty trimmed string, else null. */
function str(value: unknown): string | null {
  return typeof value === "string" && value.trim() ? value.trim() : null;
}

/** Requests to the API under one deadline; 404 reads as null, other failures throw. */
export class GithubApi {
  private readonly signal: AbortSignal;

  constructor(private readonly config: GithubConfig, private readonly limits: ReadLimits) {
    this.signal = AbortSignal.timeout(limits.timeoutMs);
  }

  /** A JSON document; null on 404. */
  async json(path: string): Promise<unknown> {
    const res = await this.request(path, "application/vnd.github+json");
    if (!res) return null;
    const { text, truncated } = await readCapped(res, this.limits.maxBytes, this.signal);
    if (truncated) throw fail(`GitHub API response exceeds ${this.limits.maxBytes} bytes`);
    try {
      return JSON.parse(text);
    } catch {
      throw fail("GitHub API answered with invalid JSON");
    }
  }

  /** A file's raw text (README, manifest), cut at {@link MAX_TEXT_FILE_BYTES}; null on 404. */
  async raw(path: string): Promise<string | null> {
    const res = await this.request(path, "application/vnd.github.raw+json");
    if (!res) return null;
    return (await readCapped(res, MAX_TEXT_FILE_BYTES, this.signal)).text;
  }

  /**
   * A tarball (`/tarball/<ref>`): the API answers with a redirect to a short-lived download
   * URL, which is fetched without the token (it must never leave for another host; the URL
   * carries its own authorisation). Its body, unread; null on 404.
   */
  async tarball(path: string): Promise<Response | null> {
    const res = await this.request(path, "application/vnd.github+json", "manual");
    if (!res) return null;
    if (res.status < 300 || res.status >= 400) return res;
    await res.body?.cancel();
    const location = res.headers.get("location");
    if (!location) throw fail("GitHub API redirected the archive without a location");
    let download: Response;
    try {
      download = await fetch(new URL(location, this.config.apiUrl), {
        headers: { "user-agent": USER_AGENT },
        redirect: "manual",
        signal: this.signal,
      });
    } catch (err) {
      throw this.signal.aborted
        ? fail(`GitHub archive download timed out after ${this.limits.timeoutMs} ms`)
        : fail(`GitHub archive download failed: ${describeFetchFailure(err, location)}`);
    }
    if (!download.ok) {
      await download.body?.cancel();
      throw fail(`GitHub archive download responded HTTP ${download.status}`);
    }
    return download;
  }

  /** The deadline every request of this reader shares. */
  get deadline(): AbortSignal {
    return this.signal;
  }

  private async request(
    path: string,
    accept: string,
    redirect: RequestRedirect = "follow",
  ): Promise<Response | null> {
    const headers: Record<string, string> = {
      "accept": accept,
      "user-agent": USER_AGENT,
      "x-github-api-version": GITHUB_API_VERSION,
    };
    if (this.config.token) headers.authorization = `Bearer ${this.config.token}`;
    let res: Response;
    try {
      res = await fetch(`${this.config.apiUrl}${path}`, { headers, redirect, signal: this.signal });
    } catch (err) {
      const host = new URL(this.config.apiUrl).host;
      throw this.signal.aborted
        ? fail(`GitHub API (${host}) timed out after ${this.limits.timeoutMs} ms`)
        : fail(`GitHub API request failed: ${describeFetchFailure(err, this.config.apiUrl)}`);
    }
    if (res.ok || (redirect === "manual" && res.status >= 300 && res.status < 400)) return res;
    const message = await errorMessage(res);
    if (res.status === 404) return null;
    if (isRateLimited(res)) {
      const reset = Number(res.headers.get("x-ratelimit-reset"));
      const when = reset > 0 ? ` (resets at ${new Date(reset * 1000).toISOString()})` : "";
      throw fail(`GitHub API rate limit exceeded${when}`);
    }
    if (res.status === 401) throw fail("GitHub API rejected the token (HTTP 401)");
    throw fail(`GitHub API responded HTTP ${res.status}${message ? `: ${message}` : ""}`);
  }
}

/** A 403 or 429 that GitHub marks as a (primary or secondary) rate limit. */
function isRateLimited(res: Response): boolean {
  if (res.status !== 403 && res.status !== 429) return false;
  return res.status === 429 || res.headers.get("x-ratelimit-remaining") === "0" ||
    res.headers.has("retry-after");
}

/** The `message` of a GitHub error body, if any (the body is consumed). */
async function errorMessage(res: Response): Promise<string | null> {
  try {
    const body = JSON.parse((await readCapped(res, 16 * 1024)).text);
    return typeof body?.message === "string" ? body.message.slice(0, 200) : null;
  } catch {
    return null;
  }
}

/** A FETCH_OR_AI_ERROR with `message`. */
export function fail(message: string): ApiError {
  return new ApiError("FETCH_OR_AI_ERROR", message);
}

/** Reads at most `cap` bytes of a body as UTF-8, cancelling the rest. */
async function readCapped(
  res: Response,
  cap: number,
  signal?: AbortSignal,
): Promise<{ text: string; truncated: boolean }> {
  if (!res.body) return { text: "", truncated: false };
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let text = "";
  let size = 0;
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) return { text: text + decoder.decode(), truncated: false };
      const room = cap - size;
      size += value.length;
      if (value.length > room) {
        text += decoder.decode(value.subarray(0, room));
        await reader.cancel();
        return { text, truncated: true };
      }
      text += decoder.decode(value, { stream: true });
    }
  } catch (err) {
    if (signal?.aborted) throw fail("GitHub API timed out while reading a response");
    throw fail(`GitHub API response failed: ${err instanceof Error ? err.message : String(err)}`);
  }
}
