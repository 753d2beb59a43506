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

/** Globs a caller may send in one list at most. */
export const MAX_GLOBS = 20;
/** Characters of one glob at most. */
export const MAX_GLOB_LENGTH = 200;

/**
 * picomatch compiles a glob to a regular expression, whose backtracking is polynomial in the
 * path with one term per wildcard: measured, `*a*a*b` took 34 ms on a 255-character name and
 * `*a*a*a*b` 3.2 s, three `**` segments 44 ms on an 800-character path. So a caller's glob
 * may hold at most one `*` per path segment besides `**` segments, and at most two `**`
 * segments (each match then stays around a millisecond); extglobs are off.
 */
export const MAX_GLOBSTARS = 2;

const OPTIONS = { dot: true, nocase: false, noextglob: true };

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

/**
 * Checks one glob: within length, at most one `*` per segment besides `**` segments, at most
 * {@link MAX_GLOBSTARS} of those, and a picomatch pattern that compiles.
 */
export function validGlob(glob: string): boolean {
  if (glob.length === 0 || glob.length > MAX_GLOB_LENGTH) return false;
  const segments = glob.split("/");
  if (segments.filter((s) => s === "**").length > MAX_GLOBSTARS) return false;
  if (segments.some((s) => s !== "**" && (s.match(/\*/g)?.length ?? 0) > 1)) return false;
  try {
    picomatch.makeRe(glob, OPTIONS);
    return true;
  } catch {
    return false;
  }
}
