/**
 * `deno task build [slug...]`: one self-contained bundle per experiment, `dist/<slug>.js`, made
 * by `deno bundle` (esbuild inside Deno; works offline once its esbuild package is cached), plus
 * `dist/scalar.js`, the Scalar script that `GET /docs` serves (shared/contract/docs.ts reads it
 * beside the bundle when there is no node_modules).
 *
 * A bundle imports nothing from node_modules: every npm package it uses is inside it, and dynamic
 * `import()`s of route code are inlined too (they still run on first use, not at start-up). The one
 * exception is the set of modules in NATIVE_EXTERNALS, which load a native addon (the local `file:`
 * libSQL client): they stay out of the bundle, imported dynamically only in their own mode, and
 * their bare specifiers are rewritten to the pinned `npm:` specifiers of deno.json, so a bundle
 * that does use them (DB_URL=file:…, outside the edge) resolves them from Deno's npm cache with no
 * node_modules beside it.
 */
import { SLUGS } from "./experiments.ts";
import { SCALAR_ASSET } from "../shared/contract/docs.ts";

/** Modules that load a native addon: never bundled (see the module doc). */
export const NATIVE_EXTERNALS = [
  "@libsql/client",
  "@libsql/client/node",
  "@libsql/client/sqlite3",
  "libsql",
] as const;

const ROOT = new URL("../", import.meta.url);
/** Where the bundles go (git-ignored). */
export const DIST_DIR = new URL("dist/", ROOT);

/** The bundle of one experiment. */
export function bundlePath(slug: string): string {
  return new URL(`${slug}.js`, DIST_DIR).pathname;
}

/** The `deno bundle` arguments that build the given experiments into `outdir`. */
export function bundleArgs(slugs: readonly string[], outdir: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--platform=deno",
    `--outdir=${outdir}`,
    ...NATIVE_EXTERNALS.map((e) => `--external=${e}`),
    ...slugs.map((s) => `functions/${s}/main.ts`),
  ];
}

/**
 * Rewrites the bare specifiers of NATIVE_EXTERNALS left in a bundle (`from "x"`, `import("x")`)
 * to their `npm:` specifiers in `imports` (deno.json's import map; a subpath follows its
 * package's entry). A specifier the map does not know is an error: the bundle could not load it.
 */
export function rewriteExternals(code: string, imports: Record<string, string>): string {
  return code.replace(
    /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)(["'])([^"']+)\2/g,
    (whole, lead: string, quote: string, spec: string) => {
      if (!(NATIVE_EXTERNALS as readonly string[]).includes(spec)) return whole;
      const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
      const target = imports[spec] ??
        (imports[pkg] ? imports[pkg] + spec.slice(pkg.length) : undefined);
      if (!target?.startsWith("npm:")) {
        throw new Error(`build: ${spec} is external but deno.json imports has no npm: entry`);
      }
      return `${lead}${quote}${target}${quote}`;
    },
  );
}

/** Where the Scalar standalone script is in node_modules. */
function scalarSource(): URL {
  return new URL("./browser/standalone.js", import.meta.resolve("@scalar/api-reference"));
}

/**
 * Builds the bundles of `slugs` (all by default) into dist/ and copies the Scalar script
 * beside them. Returns the paths written. Throws with `deno bundle`'s output when it fails.
 */
export async function build(slugs: readonly string[] = SLUGS): Promise<string[]> {
  const unknown = slugs.filter((s) => !(SLUGS as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`unknown experiment ${unknown.join(", ")}`);
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const imports: Record<string, string> = config.imports ?? {};
  await Deno.mkdir(DIST_DIR, { recursive: true });
  const outdir = await Deno.makeTempDir({ dir: DIST_DIR.pathname, prefix: ".bundle_" });
  try {
    // One `deno bundle` for all of them: one process, one module graph (~8× faster than eight).
    const out = await new Deno.Command(Deno.execPath(), {
      args: bundleArgs(slugs, outdir),
      cwd: ROOT,
      env: { NO_COLOR: "1" },
      stdout: "piped",
      stderr: "piped",
    }).output();
    if (!out.success) {
      const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
      throw new Error(`deno bundle failed:\n${text.trim()}`);
    }
    const written: string[] = [];
    for (const slug of slugs) {
      // With one entry esbuild writes <outdir>/main.js; with several, <outdir>/<slug>/main.js.
      const made = slugs.length === 1 ? `${outdir}/main.js` : `${outdir}/${slug}/main.js`;
      const code = rewriteExternals(await Deno.readTextFile(made), imports);
      await Deno.writeTextFile(bundlePath(slug), code);
      written.push(bundlePath(slug));
    }
    const scalar = new URL(SCALAR_ASSET, DIST_DIR).pathname;
    await Deno.copyFile(scalarSource(), scalar);
    written.push(scalar);
    return written;
  } finally {
    await Deno.remove(outdir, { recursive: true });
  }
}

if (import.meta.main) {
  const started = performance.now();
  try {
    const written = await build(Deno.args.length > 0 ? Deno.args : SLUGS);
    for (const path of written) {
      const { size } = await Deno.stat(path);
      console.log(`${path.slice(ROOT.pathname.length)}  ${(size / 1024).toFixed(0)} KiB`);
    }
    console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error(`build: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
  }
}
