/**
 * `deno task deploy <slug> [options]`: builds one experiment's bundle, stages it alone in
 * `dist/deploy/<slug>/` (`<slug>.js`, its chunk folder, the `/docs` files and a deno.json naming the
 * app: nothing else is uploaded),
 * and runs the Deno Deploy CLI (`deno deploy`, not the deprecated deployctl) on that folder.
 * DEPLOY.md walks through the accounts, services and variables.
 *
 * Options:
 *   --org <name>       Deno Deploy organization (default: DENO_DEPLOY_ORG)
 *   --app <name>       app name (default: the slug); its URL is https://<app>.<org>.deno.net
 *   --create           create the app first (`deno deploy create`, non-interactive, local
 *                      source, dynamic runtime, entrypoint <slug>.js); it deploys once too
 *   --region <region>  region of a new app: us, eu or global (default global)
 *   --env-file <file>  load variables from a .env file (`deno deploy env load`) before deploying
 *   --preview          a preview deployment instead of production (no --prod)
 *   --dry-run          build and stage, print the commands, run nothing
 *
 * Authentication is the CLI's own: the keyring after a browser login, or DENO_DEPLOY_TOKEN.
 */
import { parseArgs } from "node:util";
import { build, bundlePath, chunkDir, DIST_DIR } from "./build.ts";
import { SLUGS } from "./experiments.ts";
import { DOCS_ASSETS } from "../shared/contract/docs.ts";

/** What to deploy, and how. */
export interface DeployOptions {
  slug: string;
  org: string;
  app: string;
  /** The staged folder that is uploaded. */
  dir: string;
  create: boolean;
  region: "us" | "eu" | "global";
  envFile?: string;
  preview: boolean;
}

const REGIONS = ["us", "eu", "global"] as const;

/** The folder one experiment is staged in for upload. */
export function stageDir(slug: string): string {
  return new URL(`deploy/${slug}/`, DIST_DIR).pathname;
}

/** The `deno` command lines (argument lists after `deno`) that deploy, in order. */
export function deployCommands(o: DeployOptions): string[][] {
  const target = ["--org", o.org, "--app", o.app];
  const commands: string[][] = [];
  if (o.create) {
    commands.push([
      "deploy",
      "create",
      o.dir,
      ...target,
      "--source",
      "local",
      "--runtime-mode",
      "dynamic",
      "--entrypoint",
      `${o.slug}.js`,
      // The folder is already built: no framework detection, no install or build step there.
      "--do-not-use-detected-build-config",
      "--region",
      o.region,
    ]);
  }
  if (o.envFile) commands.push(["deploy", "env", "load", o.envFile, ...target]);
  // `create` deploys once; deploy again only when there is something new to apply.
  if (!o.create || o.envFile) {
    commands.push(["deploy", o.dir, ...target, ...(o.preview ? [] : ["--prod"])]);
  }
  return commands;
}

/** Parses the command line; throws with a usage line on a mistake. */
export function parseDeployArgs(
  args: string[],
  env: Record<string, string | undefined>,
): DeployOptions & { dryRun: boolean } {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: {
      org: { type: "string" },
      app: { type: "string" },
      create: { type: "boolean", default: false },
      region: { type: "string", default: "global" },
      "env-file": { type: "string" },
      preview: { type: "boolean", default: false },
      "dry-run": { type: "boolean", default: false },
    },
  });
  const usage = `usage: deno task deploy <${SLUGS.join("|")}> --org <org> [--app <name>] ` +
    `[--create] [--region us|eu|global] [--env-file <file>] [--preview] [--dry-run]`;
  const slug = positionals[0];
  if (positionals.length !== 1 || !(SLUGS as readonly string[]).includes(slug)) {
    throw new Error(`${positionals.length === 1 ? `unknown experiment ${slug}\n` : ""}${usage}`);
  }
  const org = values.org ?? env.DENO_DEPLOY_ORG;
  if (!org) throw new Error(`--org (or DENO_DEPLOY_ORG) is required\n${usage}`);
  const app = values.app ?? slug;
  // Deno Deploy app names: lowercase letters, digits and dashes (they are host names).
  if (!/^[a-z0-9]([a-z0-9-]{0,30}[a-z0-9])?$/.test(app)) {
    throw new Error(`--app must be a lowercase host label (a-z, 0-9, -), got "${app}"`);
  }
  const region = values.region as DeployOptions["region"];
  if (!REGIONS.includes(region)) throw new Error(`--region must be one of ${REGIONS.join(", ")}`);
  return {
    slug,
    org,
    app,
    dir: stageDir(slug),
    create: values.create,
    region,
    envFile: values["env-file"],
    preview: values.preview,
    dryRun: values["dry-run"],
  };
}

/**
 * Builds `slug` and copies its bundle, chunks and the `/docs` files into `stageDir(slug)`, with
 * a deno.json of its own that names the app: the CLI then finds no other configuration (the
 * project's import map and tasks are not the deployment's) and later runs know the app.
 */
export async function stage(slug: string, org: string, app: string): Promise<string> {
  await build([slug]);
  const dir = stageDir(slug);
  await Deno.remove(dir, { recursive: true }).catch(() => {});
  await Deno.mkdir(`${dir}${slug}`, { recursive: true });
  await Deno.copyFile(bundlePath(slug), `${dir}${slug}.js`);
  for await (const e of Deno.readDir(chunkDir(slug))) {
    await Deno.copyFile(`${chunkDir(slug)}${e.name}`, `${dir}${slug}/${e.name}`);
  }
  for (const name of DOCS_ASSETS) await Deno.copyFile(new URL(name, DIST_DIR), `${dir}${name}`);
  await Deno.writeTextFile(`${dir}deno.json`, JSON.stringify({ deploy: { org, app } }, null, 2));
  return dir;
}

/** A command line as a shell would show it. */
export function shellLine(args: string[]): string {
  return ["deno", ...args].map((a) => /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a}'`).join(" ");
}

if (import.meta.main) {
  let options;
  try {
    options = parseDeployArgs(Deno.args, Deno.env.toObject());
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    Deno.exit(2);
  }
  await stage(options.slug, options.org, options.app);
  const commands = deployCommands(options);
  for (const args of commands) {
    console.log(shellLine(args));
    if (options.dryRun) continue;
    const { code } = await new Deno.Command(Deno.execPath(), { args }).spawn().status;
    if (code !== 0) Deno.exit(code);
  }
  if (!options.dryRun) {
    console.log(`deployed: https://${options.app}.${options.org}.deno.net/`);
  }
}
