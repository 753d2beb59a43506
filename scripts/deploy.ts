/**
 * `deno task deploy <slug> [options]`: builds one experiment's bundle, stages it alone in
 * `dist/deploy/<slug>/` (`<slug>.js`, its chunk folder, the `/docs` files, a deno.json naming the app
 * and a .gitignore that keeps all of it: nothing else is uploaded), and runs the Deno Deploy CLI
 * (`deno deploy`, not the deprecated deployctl) on that folder. DEPLOY.md walks through the
 * accounts, services and variables.
 *
 * Guarded against what the CLI does by itself:
 * - it saves `deploy.org`/`deploy.app` into the configuration file it finds from its working
 *   directory (and creates a deno.jsonc there when it finds none): every command runs with the
 *   staged folder as its working directory, so only the staged deno.json is ever written;
 * - it collects the files to upload honouring .gitignore, and `/dist/` is ignored by the
 *   repository's: the staged .gitignore re-includes everything in the folder;
 * - `env load` prompts (and, without a terminal, fails) when a variable exists, and decides by
 *   its own rule which variables are secrets (every key but `PUBLIC_*` ones as soon as one key
 *   starts with `PUBLIC_`, else names with KEY, TOKEN, …): plain variables go through `env load
 *   --replace` with every key named in `--non-secrets`, secrets one by one through `env add
 *   --secret` (after removing an earlier one), and the task prints which is which;
 * - `deploy create` publishes the new app's first deployment to production: `--create
 *   --preview` is refused, so `--preview` never reaches production.
 * Every command runs with no standard input, so nothing waits for a terminal.
 *
 * Options:
 *   --org <name>       Deno Deploy organization (default: DENO_DEPLOY_ORG)
 *   --app <name>       app name (default: the slug); its URL is https://<app>.<org>.deno.net
 *   --create           create the app first (`deno deploy create`, non-interactive, local
 *                      source, dynamic runtime, entrypoint <slug>.js); it deploys once too
 *   --region <region>  region of a new app: us, eu or global (default global)
 *   --env-file <file>  set the variables of a .env file before deploying (secrets by
 *                      SECRET_KEYS and secretKey(), the rest plain; both listed)
 *   --preview          a preview deployment instead of production (no --prod)
 *   --dry-run          build and stage, print the commands, run nothing
 *
 * Authentication is the CLI's own: the keyring after a browser login, or DENO_DEPLOY_TOKEN.
 */
import { parseArgs, parseEnv } from "node:util";
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

/**
 * The variables every experiment treats as secrets (DEPLOY.md's table): write-only on the
 * platform. `BROWSER_WS_ENDPOINT` holds a token in its URL, and no name rule would see that.
 */
export const SECRET_KEYS = new Set([
  "DB_AUTH_TOKEN",
  "UPSTASH_REDIS_REST_TOKEN",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
  "BROWSER_WS_ENDPOINT",
  "HF_TOKEN",
  "GITHUB_TOKEN",
]);

/** Any other variable whose name says it is a credential is a secret too. */
export function secretKey(key: string): boolean {
  return SECRET_KEYS.has(key) || /TOKEN|SECRET|PASSWORD|PRIVATE|CREDENTIAL|(^|_)KEY(_|$)/.test(key);
}

/** The variables of an env file, split by this task's own rule (never the CLI's). */
export interface EnvPlan {
  /** Visible in the console. */
  plain: Record<string, string>;
  /** Write-only in the console. */
  secrets: Record<string, string>;
}

/** Reads `.env` text (dotenv syntax, as Deno and Node read it) and splits it. */
export function envPlan(text: string): EnvPlan {
  const plan: EnvPlan = { plain: {}, secrets: {} };
  for (const [key, value] of Object.entries(parseEnv(text))) {
    (secretKey(key) ? plan.secrets : plan.plain)[key] = value ?? "";
  }
  return plan;
}

/** The plain variables as a .env file of their own (no secret in it). */
export function plainEnvText(plan: EnvPlan): string {
  return Object.entries(plan.plain).map(([k, v]) => `${k}=${JSON.stringify(v)}\n`).join("");
}

/**
 * The `deno` command lines (argument lists after `deno`) that deploy, in order; each runs in
 * the staged folder (`o.dir`). `plainFile` is where the plain variables of `env` are written.
 */
export function deployCommands(o: DeployOptions, env?: EnvPlan, plainFile?: string): string[][] {
  const target = ["--org", o.org, "--app", o.app];
  const commands: string[][] = [];
  if (o.create) {
    commands.push([
      "deploy",
      "create",
      ".",
      ...target,
      "--source",
      "local",
      "--app-directory",
      ".",
      // The folder is already built: no framework detection, no install or build step there.
      "--do-not-use-detected-build-config",
      "--install-command",
      "true",
      "--build-command",
      "true",
      "--pre-deploy-command",
      "true",
      "--runtime-mode",
      "dynamic",
      "--entrypoint",
      `${o.slug}.js`,
      "--build-timeout",
      "5",
      "--build-memory-limit",
      "1024",
      "--region",
      o.region,
    ]);
  }
  const plain = Object.keys(env?.plain ?? {});
  if (plain.length > 0) {
    // --replace: existing variables are overwritten instead of prompted for.
    commands.push([
      "deploy",
      "env",
      "load",
      plainFile!,
      ...target,
      "--replace",
      "--non-secrets",
      ...plain,
    ]);
  }
  for (const [key, value] of Object.entries(env?.secrets ?? {})) {
    // `env add` refuses a key that exists; a removal that finds nothing is fine.
    commands.push(["deploy", "env", "delete", key, ...target]);
    commands.push(["deploy", "env", "add", key, value, "--secret", ...target]);
  }
  // `create` deploys once; deploy again only when there is something new to apply.
  if (!o.create || env) {
    commands.push(["deploy", ".", ...target, ...(o.preview ? [] : ["--prod"])]);
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
  if (values.create && values.preview) {
    throw new Error(
      "--create --preview: the CLI publishes a new app's first deployment to production. " +
        "Create the app without --preview first, then deploy previews",
    );
  }
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
  await Deno.writeTextFile(`${dir}.gitignore`, STAGED_GITIGNORE);
  return dir;
}

/**
 * The staged folder's .gitignore: the repository ignores `/dist/`, and the CLI leaves out what
 * .gitignore files ignore; a whitelist in the folder itself keeps every staged file in.
 */
export const STAGED_GITIGNORE = "# Staged by scripts/deploy.ts: upload all of it.\n!*\n!**/*\n";

/** A command line as a shell would show it; `hidden` values are shown as `***`. */
export function shellLine(args: string[], hidden: ReadonlySet<string> = new Set()): string {
  return ["deno", ...args]
    .map((a) => hidden.has(a) ? "'***'" : /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a}'`)
    .join(" ");
}

/** Runs `deno <args>` in `cwd` with no standard input; resolves with its exit code. */
export async function spawnDeno(args: string[], cwd: string): Promise<number> {
  const child = new Deno.Command(Deno.execPath(), { args, cwd, stdin: "null" }).spawn();
  return (await child.status).code;
}

/**
 * Runs `commands` in order, each in the staged folder `dir` (so the CLI finds, and writes, only
 * its deno.json), printing each first with the `hidden` values masked. Stops at the first
 * failure and resolves with its exit code (0 when all ran); a secret's removal that finds
 * nothing (its first time) is not a failure.
 */
export async function runCommands(
  commands: string[][],
  dir: string,
  hidden: ReadonlySet<string>,
  run: (args: string[], cwd: string) => Promise<number> = spawnDeno,
): Promise<number> {
  for (const args of commands) {
    console.log(shellLine(args, hidden));
    const code = await run(args, dir);
    if (code !== 0 && !(args[1] === "env" && args[2] === "delete")) return code;
  }
  return 0;
}

if (import.meta.main) {
  let options;
  let env: EnvPlan | undefined;
  try {
    options = parseDeployArgs(Deno.args, Deno.env.toObject());
    if (options.envFile) env = envPlan(await Deno.readTextFile(options.envFile));
  } catch (err) {
    console.error(err instanceof Error ? err.message : err);
    Deno.exit(2);
  }
  const dir = await stage(options.slug, options.org, options.app);
  if (env) {
    console.log(`secrets (write-only): ${Object.keys(env.secrets).join(", ") || "none"}`);
    console.log(`plain (visible): ${Object.keys(env.plain).join(", ") || "none"}`);
  }
  // The plain variables' file lives outside the uploaded folder (and holds no secret).
  const plainFile = env ? await Deno.makeTempFile({ prefix: "deploy-plain-", suffix: ".env" }) : "";
  try {
    if (env) await Deno.writeTextFile(plainFile, plainEnvText(env));
    const hidden = new Set(Object.values(env?.secrets ?? {}));
    const commands = deployCommands(options, env, plainFile);
    const code = await runCommands(
      commands,
      dir,
      hidden,
      options.dryRun ? () => Promise.resolve(0) : spawnDeno,
    );
    if (code !== 0) Deno.exit(code);
  } finally {
    if (plainFile) await Deno.remove(plainFile).catch(() => {});
  }
  if (!options.dryRun) {
    const where = options.preview ? "preview of" : "deployed:";
    console.log(`${where} https://${options.app}.${options.org}.deno.net/`);
  }
}
