/**
 * A fake GitHub REST API on 127.0.0.1 for `/explain` and `/digest`: repository metadata,
 * README, top-level contents and raw files, and tarballs (a 302 to a separate "codeload"
 * server, as GitHub does, whose gzipped tar has GitHub's layout: a pax global header naming
 * the commit, everything under `owner-repo-sha7/`), with GitHub's response shapes, its 404
 * bodies and its rate-limit answer. A private repository answers only to {@link PRIVATE_TOKEN},
 * 404 to anyone else. Records every request, on both servers.
 */
import { packTar } from "modern-tar";
import { untilAborted } from "./until_aborted.ts";

/** The token that sees private repositories. */
export const PRIVATE_TOKEN = "ghp_callerPrivateToken123";

/** The commit every tarball is of. */
export const FAKE_COMMIT = "c0ffee0000000000000000000000000000000001";

/** One repository the fake knows. */
export interface FakeRepo {
  owner: string;
  name: string;
  description?: string | null;
  language?: string | null;
  stars?: number;
  topics?: string[];
  /** `{spdx_id, name}`; null or absent: no licence detected. */
  license?: { spdx_id: string; name: string } | null;
  defaultBranch?: string;
  /** Other refs `?ref=` may name (the default branch always may). */
  branches?: string[];
  /** Top-level entries: file name to its content, or null for a directory. */
  files?: Record<string, string | null>;
  /** The README served by `/readme` (absent: 404). */
  readme?: string;
  /** Only {@link PRIVATE_TOKEN} sees it. */
  private?: boolean;
  /** Every file by full path, for tarballs (absent: the top-level files of `files`). */
  tree?: Record<string, string | Uint8Array>;
}

/** How the fake answers every request. */
export type GithubMode = "normal" | "rate-limited" | "too-many-requests" | "error" | "hang";

/** One request the fake received. */
export interface GithubRequest {
  path: string;
  /** The `ref` query parameter, if any. */
  ref: string | null;
  headers: Headers;
}

/** A running fake. */
export interface GithubFake {
  /** Base URL of the fake API: `http://127.0.0.1:<port>`. */
  apiUrl: string;
  requests: GithubRequest[];
  /** Requests the download host ("codeload") received. */
  downloads: GithubRequest[];
  /** Changes how the fake answers from now on. */
  setMode(mode: GithubMode): void;
  close(): Promise<void>;
}

/** The reset time the rate-limited answer reports (2023-11-14T22:13:20Z). */
export const RATE_LIMIT_RESET = 1_700_000_000;

const JSON_TYPE = "application/json; charset=utf-8";

/** Starts the fake on a free loopback port. */
export function startGithubFake(repos: FakeRepo[], mode: GithubMode = "normal"): GithubFake {
  let current = mode;
  const requests: GithubRequest[] = [];
  const closing = new AbortController();
  const byName = new Map(repos.map((r) => [`${r.owner}/${r.name}`.toLowerCase(), r]));
  const downloads: GithubRequest[] = [];
  const codeload = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: closing.signal, onListen() {} },
    (req) => {
      const url = new URL(req.url);
      downloads.push({ path: url.pathname, ref: null, headers: req.headers });
      const m = url.pathname.match(/^\/([^/]+)\/([^/]+)\/legacy\.tar\.gz\/(.+)$/);
      const repo = m && byName.get(`${m[1]}/${m[2]}`.toLowerCase());
      if (!m || !repo) return new Response("Not Found", { status: 404 });
      if (repo.private && url.searchParams.get("token") !== "download-token") {
        return new Response("Not Found", { status: 404 });
      }
      return tarball(repo);
    },
  );
  const codeloadOrigin = `http://127.0.0.1:${codeload.addr.port}`;
  const server = Deno.serve(
    { hostname: "127.0.0.1", port: 0, signal: closing.signal, onListen() {} },
    async (req) => {
      const url = new URL(req.url);
      requests.push({ path: url.pathname, ref: url.searchParams.get("ref"), headers: req.headers });
      switch (current) {
        case "hang":
          await untilAborted(closing.signal);
          return new Response(null, { status: 499 });
        case "rate-limited":
          return json(
            {
              message: "API rate limit exceeded for 127.0.0.1. (But here's the good news: " +
                "Authenticated requests get a higher rate limit.)",
              documentation_url:
                "https://docs.github.com/rest/overview/rate-limits-for-the-rest-api",
            },
            403,
            {
              "x-ratelimit-limit": "60",
              "x-ratelimit-remaining": "0",
              "x-ratelimit-reset": String(RATE_LIMIT_RESET),
              "x-ratelimit-resource": "core",
            },
          );
        case "too-many-requests":
          return json({ message: "Too many requests" }, 429, { "retry-after": "60" });
        case "error":
          return json({ message: "Server Error" }, 500);
      }
      return answer(url, req.headers, byName, codeloadOrigin);
    },
  );
  return {
    apiUrl: `http://127.0.0.1:${server.addr.port}`,
    requests,
    downloads,
    setMode(next) {
      current = next;
    },
    async close() {
      closing.abort();
      await Promise.all([server.finished, codeload.finished]);
    },
  };
}

function answer(
  url: URL,
  headers: Headers,
  byName: Map<string, FakeRepo>,
  codeloadOrigin: string,
): Response {
  const m = url.pathname.match(
    /^\/repos\/([^/]+)\/([^/]+)(?:\/(readme|contents|tarball)(?:\/(.+))?)?$/,
  );
  const repo = m && byName.get(`${m[1]}/${m[2]}`.toLowerCase());
  if (!m || !repo) return notFound();
  if (repo.private && headers.get("authorization") !== `Bearer ${PRIVATE_TOKEN}`) return notFound();
  const [, , , kind, file] = m;
  const origin = url.origin;
  const full = `${repo.owner}/${repo.name}`;
  const branch = repo.defaultBranch ?? "main";
  if (!kind) return json(metadata(repo, origin));

  const ref = kind === "tarball"
    ? (file === undefined ? branch : decodeURIComponent(file))
    : url.searchParams.get("ref") ?? branch;
  const files = repo.files ?? {};
  const empty = Object.keys(files).length === 0;
  if (empty) return json({ message: "This repository is empty.", status: "404" }, 404);
  if (ref !== branch && !(repo.branches ?? []).includes(ref) && ref !== FAKE_COMMIT) {
    return json({ message: `No commit found for the ref ${ref}`, status: "404" }, 404);
  }
  if (kind === "tarball") {
    // GitHub's answer: a redirect to a short-lived codeload URL carrying its own token.
    const token = repo.private ? "?token=download-token" : "";
    const location = `${codeloadOrigin}/${full}/legacy.tar.gz/${ref}${token}`;
    return new Response(null, { status: 302, headers: { location } });
  }
  const raw = headers.get("accept")?.includes("raw");
  if (kind === "readme") {
    if (repo.readme === undefined) return notFound();
    return raw ? text(repo.readme) : json(fileJson(full, "README.md", repo.readme, origin));
  }
  if (file !== undefined) {
    const name = decodeURIComponent(file);
    const content = files[name];
    if (typeof content !== "string") return notFound();
    return raw ? text(content) : json(fileJson(full, name, content, origin));
  }
  return json(
    Object.entries(files).map(([name, content]) => ({
      name,
      path: name,
      sha: "0".repeat(40),
      size: content === null ? 0 : new TextEncoder().encode(content).length,
      url: `${origin}/repos/${full}/contents/${name}?ref=${ref}`,
      html_url: `https://github.com/${full}/${content === null ? "tree" : "blob"}/${ref}/${name}`,
      git_url: `${origin}/repos/${full}/git/blobs/${"0".repeat(40)}`,
      download_url: content === null
        ? null
        : `https://raw.githubusercontent.com/${full}/${ref}/${name}`,
      type: content === null ? "dir" : "file",
    })),
  );
}

/** The fields of GET /repos/{owner}/{repo} that matter here, plus some that do not. */
function metadata(repo: FakeRepo, origin: string) {
  const full = `${repo.owner}/${repo.name}`;
  return {
    id: 1296269,
    node_id: "MDEwOlJlcG9zaXRvcnkxMjk2MjY5",
    name: repo.name,
    full_name: full,
    private: repo.private ?? false,
    owner: { login: repo.owner, id: 1, type: "Organization" },
    html_url: `https://github.com/${full}`,
    description: repo.description ?? null,
    fork: false,
    url: `${origin}/repos/${full}`,
    homepage: null,
    size: Object.keys(repo.files ?? {}).length === 0 ? 0 : 108,
    stargazers_count: repo.stars ?? 0,
    watchers_count: repo.stars ?? 0,
    language: repo.language ?? null,
    forks_count: 3,
    archived: false,
    open_issues_count: 2,
    license: repo.license
      ? { key: repo.license.spdx_id.toLowerCase(), ...repo.license, node_id: "MDc6TGljZW5zZTEz" }
      : null,
    topics: repo.topics ?? [],
    visibility: repo.private ? "private" : "public",
    default_branch: repo.defaultBranch ?? "main",
  };
}

/** The repository's gzipped tarball with GitHub's layout. */
async function tarball(repo: FakeRepo): Promise<Response> {
  const tree = repo.tree ?? Object.fromEntries(
    Object.entries(repo.files ?? {}).filter((e): e is [string, string] => e[1] !== null),
  );
  const top = `${repo.owner}-${repo.name}-${FAKE_COMMIT.slice(0, 7)}`;
  const record = ` comment=${FAKE_COMMIT}\n`;
  const global = `${record.length + 2}${record}`;
  const encoder = new TextEncoder();
  const tar = await packTar([
    {
      header: { name: "pax_global_header", type: "pax-global-header", size: global.length },
      body: global,
    },
    { header: { name: `${top}/`, type: "directory", size: 0 } },
    ...Object.entries(tree).map(([path, content]) => {
      const body = typeof content === "string" ? encoder.encode(content) : content;
      return { header: { name: `${top}/${path}`, size: body.length }, body };
    }),
  ]);
  const gz = new Blob([tar]).stream().pipeThrough(new CompressionStream("gzip"));
  return new Response(gz, { headers: { "content-type": "application/x-gzip" } });
}

function fileJson(full: string, name: string, content: string, origin: string) {
  const bytes = new TextEncoder().encode(content);
  return {
    type: "file",
    encoding: "base64",
    size: bytes.length,
    name,
    path: name,
    content: btoa(String.fromCharCode(...bytes)),
    url: `${origin}/repos/${full}/contents/${name}`,
  };
}

function json(body: unknown, status = 200, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), {
    status,
    headers: { "content-type": JSON_TYPE, ...headers },
  });
}

function text(body: string): Response {
  return new Response(body, { headers: { "content-type": "application/vnd.github.raw" } });
}

function notFound(): Response {
  return json({
    message: "Not Found",
    documentation_url: "https://docs.github.com/rest",
    status: "404",
  }, 404);
}
