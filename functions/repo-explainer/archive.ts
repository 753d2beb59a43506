/**
 * Reads a repository's files from its tarball, one API request whatever the number of files
 * (the contents API would spend one of the 60 unauthenticated requests an hour per file).
 * The gzip stream is decompressed and parsed as it arrives (`modern-tar`, web streams), each
 * file is kept or skipped from its path before its bytes are read, and every bound (archive
 * bytes, file bytes, files, kept bytes) stops the read with the reason rather than buffering.
 */
import { createTarDecoder } from "modern-tar";
import { fail } from "./github_api.ts";
import { isBinary, type OmitReason, type PathFilter } from "./file_rules.ts";

/** Bounds of one archive read. */
export interface ArchiveLimits {
  /** Uncompressed archive bytes read at most; the rest is not read. */
  maxArchiveBytes: number;
  /** A file larger than this is left out (`too-large`). */
  maxFileBytes: number;
  /** Text files kept at most; later ones are left out (`limit`). */
  maxFiles: number;
  /** Bytes of kept text at most; later files are left out (`limit`). */
  maxTextBytes: number;
}

/** The defaults (README: Limits). */
export const ARCHIVE_LIMITS: ArchiveLimits = {
  maxArchiveBytes: 100 * 1024 * 1024,
  maxFileBytes: 512 * 1024,
  maxFiles: 2_000,
  maxTextBytes: 16 * 1024 * 1024,
};

/** Paths longer than this, or with a longer segment, are not matched (and are left out). */
const MAX_PATH_LENGTH = 1024;
const MAX_SEGMENT_LENGTH = 255;

/** A text file kept for the digest. */
export interface ArchiveFile {
  path: string;
  text: string;
  bytes: number;
}

/** A file left out, and why. */
export interface OmittedFile {
  path: string;
  reason: OmitReason;
  bytes: number;
}

/** What an archive held. */
export interface ArchiveContents {
  /** The commit the archive is of (GitHub writes it in the pax global header), if known. */
  commit: string | null;
  files: ArchiveFile[];
  omitted: OmittedFile[];
  /** Why the read stopped early, or null when the whole archive was read. */
  truncated: string | null;
}

/**
 * Reads a gzipped tarball whose entries sit under one top folder (GitHub's
 * `owner-repo-sha/`), keeping the text files `filter` lets through.
 */
export async function readArchive(
  gzipped: ReadableStream<Uint8Array>,
  filter: PathFilter,
  limits: ArchiveLimits = ARCHIVE_LIMITS,
  signal?: AbortSignal,
): Promise<ArchiveContents> {
  let archiveBytes = 0;
  let overArchive = false;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      const room = limits.maxArchiveBytes - archiveBytes;
      archiveBytes += chunk.length;
      if (chunk.length > room) {
        // What fits still goes through: the files it completes are kept.
        overArchive = true;
        if (room > 0) controller.enqueue(chunk.subarray(0, room));
        controller.terminate();
        return;
      }
      controller.enqueue(chunk);
    },
  });
  const entries = gzipped
    .pipeThrough(
      new DecompressionStream("gzip") as unknown as TransformStream<Uint8Array, Uint8Array>,
    )
    .pipeThrough(counter)
    .pipeThrough(createTarDecoder());
  const out: ArchiveContents = { commit: null, files: [], omitted: [], truncated: null };
  let textBytes = 0;
  try {
    for await (const entry of entries) {
      const { header } = entry;
      const comment = header.pax?.comment;
      if (!out.commit && comment && /^[0-9a-f]{40}$/.test(comment)) out.commit = comment;
      const path = header.name.split("/").slice(1).join("/");
      if ((header.type ?? "file") !== "file" || path === "") {
        await entry.body.cancel();
        continue;
      }
      const bytes = header.size;
      const tooLong = path.length > MAX_PATH_LENGTH ||
        path.split("/").some((s) => s.length > MAX_SEGMENT_LENGTH);
      let reason: OmitReason | null = tooLong ? "limit" : filter(path);
      if (!reason && bytes > limits.maxFileBytes) reason = "too-large";
      if (
        !reason &&
        (out.files.length >= limits.maxFiles || textBytes + bytes > limits.maxTextBytes)
      ) reason = "limit";
      if (reason) {
        await entry.body.cancel();
        out.omitted.push({ path, reason, bytes });
        continue;
      }
      const data = new Uint8Array(await new Response(entry.body).arrayBuffer());
      if (isBinary(data)) {
        out.omitted.push({ path, reason: "binary", bytes });
        continue;
      }
      textBytes += data.length;
      out.files.push({ path, text: new TextDecoder().decode(data), bytes: data.length });
    }
  } catch (err) {
    if (signal?.aborted) throw fail("GitHub archive download timed out");
    if (!overArchive) {
      throw fail(`GitHub archive is unreadable: ${err instanceof Error ? err.message : err}`);
    }
  }
  if (overArchive) out.truncated = `archive over ${limits.maxArchiveBytes} bytes: the rest unread`;
  return out;
}
