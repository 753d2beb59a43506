/**
 * `deno task build [slug...]`: one self-contained bundle per experiment, made by `deno bundle`
 * (esbuild inside Deno; works offline once its esbuild package is cached): the entry
 * `dist/<slug>.js`, and `dist/<slug>/`, the chunks of the code it imports with `import()` (route
 * code, loaded on first use: split out, and imported with computed specifiers, it costs no
 * start-up; see deferDynamicImports). Plus the Swagger UI files that `GET /docs` serves
 * (`DOCS_ASSETS`: shared/contract/docs.ts reads them in dist/ when there is no node_modules).
 *
 * The HTML entity table of `entities` goes in decoded (scripts/entity_table.ts): unpacking it
 * at import cost every page route's first request 5-7 ms.
 *
 * Each entry starts with DEPLOYMENT_PRELUDE (shared/contract/config.ts): a bundle is what is
 * deployed, and a deployment never keeps links or objects on the instance's temporary disk by
 * default (a binding with no variable answers its contract error naming the variables).
 *
 * A bundle imports nothing from node_modules: every npm package it uses is inside it. The one
 * exception is the set of modules in NATIVE_EXTERNALS, which load a native addon (the local `file:`
 * libSQL client): they stay out of the bundle, imported dynamically only in their own mode, and
 * their bare specifiers are rewritten to the `npm:` specifiers pinned by deno.json and deno.lock, so a bundle
 * that does use them (DB_URL=file:…, outside the edge) resolves them from Deno's npm cache with no
 * node_modules beside it.
 */
import { SLUGS } from "./experiments.ts";
import { DOCS_ASSETS } from "../shared/contract/docs.ts";
import { DEPLOYMENT_PRELUDE } from "../shared/contract/config.ts";
import { entityTableInliner } from "./entity_table.ts";

/**
 * Modules that load a native addon: never bundled (see the module doc). Not `@libsql/client`
 * itself: esbuild marks a name's subpaths external too, and `@libsql/client/web`, the edge's
 * client, must be bundled. Its root entry resolves (Deno condition) to the native client, which
 * imports `libsql`: that stays out all the same.
 */
export const NATIVE_EXTERNALS = [
  "@libsql/client/node",
  "@libsql/client/sqlite3",
  "libsql",
] as const;

/** Whether esbuild leaves `spec` external: one of NATIVE_EXTERNALS or a subpath of one. */
function isExternal(spec: string): boolean {
  return NATIVE_EXTERNALS.some((e) => spec === e || spec.startsWith(`${e}/`));
}

/**
 * What an edge isolate allows (no subprocess, no writable disk, no native addon): the flags the
 * edge tests and the bundle cold-start benchmark run every bundle under.
 */
export const EDGE_PERMISSIONS = [
  "--allow-net",
  "--allow-env",
  "--allow-read",
  "--allow-sys",
  "--deny-write",
  "--deny-run",
  "--deny-ffi",
] as const;

const ROOT = new URL("../", import.meta.url);
/** Where the bundles go (git-ignored). */
export const DIST_DIR = new URL("dist/", ROOT);

/** The bundle of one experiment (its entry); its lazily loaded chunks are in chunkDir(slug). */
export function bundlePath(slug: string, dist: URL = DIST_DIR): string {
  return new URL(`${slug}.js`, dist).pathname;
}

/** The folder of an experiment's chunks (code its bundle imports on first use). */
export function chunkDir(slug: string, dist: URL = DIST_DIR): string {
  return new URL(`${slug}/`, dist).pathname;
}

/** The `deno bundle` arguments that build one experiment into `outdir`. */
export function bundleArgs(slug: string, outdir: string): string[] {
  return [
    "bundle",
    "--quiet",
    "--platform=deno",
    // Route code imported with import() goes to chunks read on first use, not at start-up:
    // inlined into one file it costs every cold start (README "Build").
    "--code-splitting",
    "--minify",
    "--keep-names",
    `--outdir=${outdir}`,
    ...NATIVE_EXTERNALS.map((e) => `--external=${e}`),
    `functions/${slug}/main.ts`,
  ];
}

/**
 * Rewrites the bare specifiers of NATIVE_EXTERNALS left in a bundle (`from "x"`, `import("x")`)
 * to their `npm:` specifiers in `imports` (deno.json's import map; a subpath follows its
 * package's entry). A specifier the map does not know is an error: the bundle could not load it.
 */
export function rewriteExternals(code: string, imports: Record<string, string>): string {
  return code.replace(IMPORT_SPECIFIER, (whole, lead: string, quote: string, spec: string) => {
    if (!isExternal(spec)) return whole;
    const pkg = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    const target = imports[spec] ??
      (imports[pkg] ? imports[pkg] + spec.slice(pkg.length) : undefined);
    if (!target?.startsWith("npm:")) {
      throw new Error(`build: ${spec} is external but deno.json imports has no npm: entry`);
    }
    return `${lead}${quote}${target}${quote}`;
  });
}

/**
 * Points the entry's relative imports (`"./chunk-X.js"`) into its chunk folder: the entry moves
 * from beside its chunks to `dist/<slug>.js`, the chunks to `dist/<slug>/`.
 */
export function rewriteChunkImports(code: string, slug: string): string {
  return code.replace(
    IMPORT_SPECIFIER,
    (whole, lead: string, quote: string, spec: string) =>
      spec.startsWith("./") ? `${lead}${quote}./${slug}/${spec.slice(2)}${quote}` : whole,
  );
}

/** The shim esbuild puts where bundled CommonJS code calls `require()`. */
const REQUIRE_SHIM = `Dynamic require of "`;
/**
 * A module-scoped `require` for that shim (Node built-ins such as `node:crypto`), made on its
 * first call: the shim sits in the chunk of esbuild's helpers, which every entry loads, and
 * importing `node:module` up front costs a cold start ~30 ms (Deno's Node layer) whether or
 * not anything is ever required.
 */
const REQUIRE_PRELUDE = `var __edgeRequire;function require(id){return(__edgeRequire??=` +
  `globalThis.process.getBuiltinModule("node:module").createRequire(import.meta.url))(id)}`;

/**
 * Gives a chunk that holds esbuild's `require` shim a real `require`: `deno bundle` adds one to
 * a single-file bundle, but not to the chunks of a split one, where the shim would otherwise
 * throw `Dynamic require of "node:crypto" is not supported` (the AWS SDK, puppeteer-core).
 */
export function addRequire(code: string): string {
  return code.includes(REQUIRE_SHIM) && !code.includes("createRequire(")
    ? REQUIRE_PRELUDE + code
    : code;
}

/**
 * Gives every literal dynamic import of a bundle file a computed specifier,
 * `import(String("…"))`, loaded when the import runs. A bundle runs alone, without deno.json's
 * `lazy-dynamic-imports`, and `deno run` then loads whatever a literal `import("…")` names
 * before the first line runs: it read and parsed every route chunk (up to 1.5 MB a bundle,
 * 25-40 ms of each cold start: bench/bundle_cold_start.ts), and for the native libSQL client's
 * `npm:` specifier it asked the npm registry (about a second, and no registry at the edge).
 */
export function deferDynamicImports(code: string): string {
  return code.replace(
    DYNAMIC_IMPORT,
    (_whole, quote: string, spec: string) => `import(String(${quote}${spec}${quote}))`,
  );
}

/** A dynamic import with a literal specifier in bundler output: `import("x")`. */
const DYNAMIC_IMPORT = /\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g;

/** An import specifier in bundler output: `from "x"`, `import("x")`, `import "x"`. */
const IMPORT_SPECIFIER = /(\bfrom\s*|\bimport\s*\(\s*|\bimport\s*)(["'])([^"'\n]+)\2/g;

/**
 * The `npm:` specifier of every package the project pins: deno.json's imports, plus the
 * packages deno.lock resolved for them (a native external such as `libsql` is a dependency of
 * `@libsql/client`, not an import of ours).
 */
export async function npmSpecifiers(): Promise<Record<string, string>> {
  const config = JSON.parse(await Deno.readTextFile(new URL("deno.json", ROOT)));
  const lock = JSON.parse(await Deno.readTextFile(new URL("deno.lock", ROOT)));
  const specifiers: Record<string, string> = {};
  for (const key of Object.keys(lock.npm ?? {})) {
    // "libsql@0.5.29" or "@scope/name@1.2.3_peer@4": name, then version before any peer suffix.
    const at = key.indexOf("@", 1);
    specifiers[key.slice(0, at)] ??= `npm:${key.slice(0, at)}@${key.slice(at + 1).split("_")[0]}`;
  }
  return { ...specifiers, ...(config.imports ?? {}) };
}

/** Where a file of `swagger-ui-dist` (one of `DOCS_ASSETS`) is in node_modules. */
function docsAssetSource(name: string): URL {
  return new URL(`./${name}`, import.meta.resolve("swagger-ui-dist"));
}

/** Runs `deno bundle` for one experiment into `outdir`; throws with its output on failure. */
async function bundleOne(slug: string, outdir: string): Promise<void> {
  const out = await new Deno.Command(Deno.execPath(), {
    args: bundleArgs(slug, outdir),
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  if (!out.success) {
    const text = new TextDecoder().decode(out.stderr) + new TextDecoder().decode(out.stdout);
    throw new Error(`deno bundle functions/${slug}/main.ts failed:\n${text.trim()}`);
  }
}

/** Bundles at once (the machine's cores; each bundle is one esbuild process). */
const PARALLEL = Math.max(1, Math.min(4, navigator.hardwareConcurrency));

/**
 * Builds the bundles of `slugs` (all by default) into `dist` (`<slug>.js` and `<slug>/`; the
 * project's dist/ by default, a folder URL ending in `/`) and copies the `/docs` files beside
 * them. Returns the entry paths written.
 */
export async function build(
  slugs: readonly string[] = SLUGS,
  dist: URL = DIST_DIR,
): Promise<string[]> {
  const unknown = slugs.filter((s) => !(SLUGS as readonly string[]).includes(s));
  if (unknown.length > 0) throw new Error(`unknown experiment ${unknown.join(", ")}`);
  const imports = await npmSpecifiers();
  const inlineEntityTable = await entityTableInliner();
  await Deno.mkdir(dist, { recursive: true });
  const temp = await Deno.makeTempDir({ dir: dist.pathname, prefix: ".bundle_" });
  try {
    const queue = [...slugs];
    const worker = async () => {
      for (let slug = queue.shift(); slug; slug = queue.shift()) {
        await bundleOne(slug, `${temp}/${slug}`);
      }
    };
    await Promise.all(Array.from({ length: PARALLEL }, worker));
    for (const slug of slugs) {
      const made = `${temp}/${slug}`;
      const chunks = chunkDir(slug, dist);
      await Deno.remove(chunks, { recursive: true }).catch(() => {});
      await Deno.mkdir(chunks);
      for await (const entry of Deno.readDir(made)) {
        const code = addRequire(inlineEntityTable(
          rewriteExternals(await Deno.readTextFile(`${made}/${entry.name}`), imports),
        ));
        if (entry.name === "main.js") {
          // The entry says it is a deployment before its own code runs (serveExperiment reads
          // the environment after every import): no embedded default writes to the disk.
          const main = DEPLOYMENT_PRELUDE + deferDynamicImports(rewriteChunkImports(code, slug));
          await Deno.writeTextFile(bundlePath(slug, dist), main);
        } else {
          await Deno.writeTextFile(`${chunks}${entry.name}`, deferDynamicImports(code));
        }
      }
    }
    for (const name of DOCS_ASSETS) await Deno.copyFile(docsAssetSource(name), new URL(name, dist));
    return slugs.map((slug) => bundlePath(slug, dist));
  } finally {
    await Deno.remove(temp, { recursive: true });
  }
}

/** Total bytes of an experiment's entry and chunks. */
async function bundleBytes(slug: string): Promise<number> {
  let total = (await Deno.stat(bundlePath(slug))).size;
  for await (const e of Deno.readDir(chunkDir(slug))) {
    total += (await Deno.stat(`${chunkDir(slug)}${e.name}`)).size;
  }
  return total;
}

if (import.meta.main) {
  const started = performance.now();
  try {
    const slugs = Deno.args.length > 0 ? Deno.args : SLUGS;
    await build(slugs);
    for (const slug of slugs) {
      const entry = (await Deno.stat(bundlePath(slug))).size;
      console.log(
        `dist/${slug}.js ${(entry / 1024).toFixed(0)} KiB, with dist/${slug}/ ` +
          `${((await bundleBytes(slug)) / 1024).toFixed(0)} KiB`,
      );
    }
    console.log(`built in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } catch (err) {
    console.error(`build: ${err instanceof Error ? err.message : err}`);
    Deno.exit(1);
  }
}
