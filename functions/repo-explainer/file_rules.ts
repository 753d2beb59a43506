/**
 * Which files of a repository go into a digest: the caller's `include` and `exclude` globs
 * (picomatch, bash-style: `src/**`, `*.md`, `{a,b}`), then the files no model should read
 * (binaries, lockfiles, minified bundles, source maps, vendored folders) as data a reader can
 * extend. A glob without a `/` matches the base name at any depth, as in `.gitignore`.
 */
// @ts-types="@types/picomatch"
import picomatch from "picomatch";

/** Why a file is left out of a digest. */
export type OmitReason =
  | "excluded"
  | "not-included"
  | "generated"
  | "vendored"
  | "binary"
  | "too-large"
  | "max-tokens"
  | "limit";

/** Lockfiles, minified bundles and source maps: generated, not written. */
export const GENERATED_GLOBS = [
  "package-lock.json",
  "npm-shrinkwrap.json",
  "yarn.lock",
  "pnpm-lock.yaml",
  "bun.lockb",
  "bun.lock",
  "deno.lock",
  "Cargo.lock",
  "Gemfile.lock",
  "composer.lock",
  "poetry.lock",
  "Pipfile.lock",
  "uv.lock",
  "go.sum",
  "flake.lock",
  "*.min.js",
  "*.min.mjs",
  "*.min.css",
  "*.map",
  "*.bundle.js",
  "*.pb.go",
  "*_pb2.py",
];

/** Folders of other people's code or build output, at any depth. */
export const VENDORED_GLOBS = [
  "**/node_modules/**",
  "**/vendor/**",
  "**/third_party/**",
  "**/bower_components/**",
  "**/dist/**",
  "**/.git/**",
];

/** Extensions of files that are not text (images, archives, fonts, binaries, media). */
export const BINARY_EXTENSIONS = new Set([
  "png",
  "jpg",
  "jpeg",
  "gif",
  "webp",
  "avif",
  "ico",
  "bmp",
  "tiff",
  "psd",
  "pdf",
  "zip",
  "gz",
  "tgz",
  "bz2",
  "xz",
  "7z",
  "rar",
  "jar",
  "war",
  "woff",
  "woff2",
  "ttf",
  "otf",
  "eot",
  "mp3",
  "mp4",
  "mov",
  "avi",
  "webm",
  "wav",
  "ogg",
  "flac",
  "exe",
  "dll",
  "so",
  "dylib",
  "a",
  "o",
  "class",
  "pyc",
  "wasm",
  "bin",
  "dat",
  "db",
  "sqlite",
  "lockb",
]);

/** Globs a caller may send in one list at most, and their length at most. */
export const MAX_GLOBS = 20;
export const MAX_GLOB_LENGTH = 200;

const OPTIONS = { dot: true, nocase: false };

/** A path test from globs: a glob without `/` matches the base name at any depth. */
function matcher(globs: readonly string[]): (path: string) => boolean {
  if (globs.length === 0) return () => false;
  const tests = globs.map((g) => picomatch(g, { ...OPTIONS, basename: !g.includes("/") }));
  return (path) => tests.some((t) => t(path));
}

/** Decides, from its path alone, whether a file goes into a digest. */
export type PathFilter = (path: string) => OmitReason | null;

/**
 * The filter of one request: `include` (when given, a file must match one), `exclude` (a file
 * matching one is left out), then the generated, vendored and binary rules. A caller's
 * `include` that names a generated or vendored file explicitly (no wildcard) brings it back.
 */
export function pathFilter(include: readonly string[], exclude: readonly string[]): PathFilter {
  const included = matcher(include);
  const excluded = matcher(exclude);
  const generated = matcher(GENERATED_GLOBS);
  const vendored = matcher(VENDORED_GLOBS);
  const named = new Set(include.filter((g) => !/[*?[\]{}()!+@]/.test(g)));
  return (path) => {
    if (include.length > 0 && !included(path)) return "not-included";
    if (excluded(path)) return "excluded";
    if (named.has(path)) return null;
    if (vendored(path)) return "vendored";
    if (generated(path)) return "generated";
    const ext = path.match(/\.([A-Za-z0-9]+)$/)?.[1]?.toLowerCase();
    if (ext && BINARY_EXTENSIONS.has(ext)) return "binary";
    return null;
  };
}

/** True when bytes read as a file are not text: a NUL byte, or not valid UTF-8. */
export function isBinary(bytes: Uint8Array): boolean {
  if (bytes.subarray(0, 8000).includes(0)) return true;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(bytes);
    return false;
  } catch {
    return true;
  }
}

/** Checks one glob: a picomatch pattern that compiles, within length. */
export function validGlob(glob: string): boolean {
  if (glob.length === 0 || glob.length > MAX_GLOB_LENGTH) return false;
  try {
    picomatch.makeRe(glob);
    return true;
  } catch {
    return false;
  }
}
