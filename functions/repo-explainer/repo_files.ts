/**
 * A repository's files at a ref, through the API's tarball (`GET /repos/{o}/{r}/tarball/{ref}`),
 * filtered by path as they stream in. Used by `/digest` and by `/explain`'s token counts.
 */
import { ApiError } from "../../shared/contract/errors.ts";
import {
  ARCHIVE_LIMITS,
  type ArchiveContents,
  type ArchiveLimits,
  readArchive,
} from "./archive.ts";
import type { PathFilter } from "./file_rules.ts";
import { GithubApi, type ReadLimits } from "./github_api.ts";
import type { GithubConfig } from "./github_config.ts";

/** What was read. */
export interface RepoFiles {
  /** `owner/name` as GitHub spells it. */
  fullName: string;
  /** The ref read: the caller's, else the default branch. */
  ref: string;
  contents: ArchiveContents;
}

function repoPath(owner: string, repo: string): string {
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(repo)}`;
}

function refPath(ref: string): string {
  return ref.split("/").map(encodeURIComponent).join("/");
}

/**
 * Reads the repository's metadata (404 NOT_FOUND "Repository not found", also for a private
 * repository the token cannot see), then its tarball at `ref` (default branch when null;
 * 404 NOT_FOUND "Ref not found"). An empty repository has no files.
 */
export async function readRepoFiles(
  config: GithubConfig,
  target: { owner: string; repo: string },
  ref: string | null,
  filter: PathFilter,
  limits: ReadLimits,
  archiveLimits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<RepoFiles> {
  const api = new GithubApi(config, limits);
  const base = repoPath(target.owner, target.repo);
  const meta = await api.json(base) as Record<string, unknown> | null;
  if (meta === null || typeof meta !== "object") {
    throw new ApiError("NOT_FOUND", "Repository not found");
  }
  const fullName = typeof meta.full_name === "string"
    ? meta.full_name
    : `${target.owner}/${target.repo}`;
  const defaultBranch = typeof meta.default_branch === "string" ? meta.default_branch : "";
  const wanted = ref ?? defaultBranch;
  const empty = meta.size === 0;
  const res = empty ? null : await api.tarball(`${base}/tarball/${refPath(wanted)}`);
  if (res === null && ref !== null && !empty) throw new ApiError("NOT_FOUND", "Ref not found");
  const contents = res?.body
    ? await readArchive(res.body, filter, archiveLimits, api.deadline)
    : { commit: null, files: [], omitted: [], truncated: null };
  return { fullName, ref: wanted, contents };
}

/**
 * The tarball alone, for `/explain` (which has read the metadata already): null when there is
 * none (an empty repository, a missing ref).
 */
export async function readArchiveOf(
  config: GithubConfig,
  target: { owner: string; repo: string; ref: string | null },
  filter: PathFilter,
  limits: ReadLimits,
  archiveLimits: ArchiveLimits = ARCHIVE_LIMITS,
): Promise<ArchiveContents | null> {
  const api = new GithubApi(config, limits);
  const base = repoPath(target.owner, target.repo);
  const res = await api.tarball(`${base}/tarball${target.ref ? `/${refPath(target.ref)}` : ""}`);
  if (!res?.body) return null;
  return await readArchive(res.body, filter, archiveLimits, api.deadline);
}
