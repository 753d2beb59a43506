/** scripts/deploy.ts: the arguments it accepts, the `deno deploy` commands it would run. */
import assert from "node:assert/strict";
import { DOCS_ASSETS } from "../../shared/contract/docs.ts";
import {
  deployCommands,
  type DeployOptions,
  envPlan,
  parseDeployArgs,
  plainEnvText,
  runCommands,
  shellLine,
  STAGED_GITIGNORE,
  stageDir,
} from "../../scripts/deploy.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("deploy: production deploy of an existing app", () => {
  const o = parseDeployArgs(["object-storage", "--org", "acme"], {});
  assert.equal(o.app, "object-storage");
  assert.equal(o.dir, stageDir("object-storage"));
  // Run in the staged folder (its deno.json is the one the CLI finds and writes).
  assert.deepEqual(deployCommands(o), [
    ["deploy", ".", "--org", "acme", "--app", "object-storage", "--prod"],
  ]);
});

Deno.test("deploy: --create makes a local-source dynamic app on the bundle, then variables, then prod", () => {
  const o = parseDeployArgs(
    ["screenshot", "--app", "shots", "--create", "--region", "eu", "--env-file", ".env.shots"],
    { DENO_DEPLOY_ORG: "acme" },
  );
  const env = envPlan("MAX_CONCURRENT_PAGES=2\nBROWSER_WS_ENDPOINT=wss://b.example?token=t\n");
  const target = ["--org", "acme", "--app", "shots"];
  const [create, load, del, add, deploy, ...rest] = deployCommands(o, env, "/tmp/plain.env");
  assert.deepEqual(rest, []);
  assert.deepEqual(create, [
    "deploy",
    "create",
    ".",
    ...target,
    "--source",
    "local",
    "--app-directory",
    ".",
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
    "screenshot.js",
    "--build-timeout",
    "5",
    "--build-memory-limit",
    "1024",
    "--region",
    "eu",
  ]);
  // Plain ones named as non-secrets, existing ones replaced without a prompt.
  assert.deepEqual(load, [
    "deploy",
    "env",
    "load",
    "/tmp/plain.env",
    ...target,
    "--replace",
    "--non-secrets",
    "MAX_CONCURRENT_PAGES",
  ]);
  // Secrets one by one, as secrets, whatever the CLI's rule would say of the name.
  assert.deepEqual(del, ["deploy", "env", "delete", "BROWSER_WS_ENDPOINT", ...target]);
  assert.deepEqual(add, [
    "deploy",
    "env",
    "add",
    "BROWSER_WS_ENDPOINT",
    "wss://b.example?token=t",
    "--secret",
    ...target,
  ]);
  assert.deepEqual(deploy, ["deploy", ".", ...target, "--prod"]);
  // Without variables, create's own first deployment is the deployment.
  const bare: DeployOptions = { ...o, envFile: undefined };
  assert.equal(deployCommands(bare).length, 1);
  assert.deepEqual(deployCommands({ ...o, create: false, envFile: undefined, preview: true }), [
    ["deploy", ".", ...target],
  ]);
});

Deno.test("deploy: secrets and plain variables by this task's rule, never the CLI's", () => {
  // With a PUBLIC_ key in the file the CLI would make every other key a secret; without one it
  // would leave BROWSER_WS_ENDPOINT (a token in a URL) plain.
  const plan = envPlan([
    "DB_URL=libsql://links.example.turso.io",
    "DB_AUTH_TOKEN=t1",
    "PUBLIC_BASE_URL=https://go.example",
    "PUBLIC_BUCKET=pub",
    "S3_ACCESS_KEY_ID=k",
    "S3_SECRET_ACCESS_KEY=s",
    "BROWSER_WS_ENDPOINT=wss://b?token=t",
    "MY_API_KEY=x",
    "CACHE_TTL_SECONDS=60",
    "# a comment",
    'export QUOTED="a b"',
  ].join("\n"));
  assert.deepEqual(Object.keys(plan.secrets), [
    "DB_AUTH_TOKEN",
    "S3_ACCESS_KEY_ID",
    "S3_SECRET_ACCESS_KEY",
    "BROWSER_WS_ENDPOINT",
    "MY_API_KEY",
  ]);
  assert.deepEqual(plan.plain, {
    DB_URL: "libsql://links.example.turso.io",
    PUBLIC_BASE_URL: "https://go.example",
    PUBLIC_BUCKET: "pub",
    CACHE_TTL_SECONDS: "60",
    QUOTED: "a b",
  });
  const text = plainEnvText(plan);
  assert.doesNotMatch(text, /t1|wss:|S3_SECRET/, "the plain file holds no secret");
  assert.deepEqual(envPlan(text).plain, plan.plain, "and reads back the same");
});

Deno.test("deploy: --preview never reaches production; --create --preview is refused", () => {
  const o = parseDeployArgs(["ai-summary", "--org", "a", "--preview", "--env-file", "x"], {});
  const commands = deployCommands(o, envPlan("AI_MODEL=m\nHF_TOKEN=t\n"), "/tmp/p.env");
  assert.ok(commands.every((c) => !c.includes("--prod") && c[1] !== "create"));
  assert.throws(
    () => parseDeployArgs(["ai-summary", "--org", "a", "--create", "--preview"], {}),
    /first deployment to production/,
  );
});

Deno.test("deploy: refuses what the CLI would refuse later", () => {
  assert.throws(() => parseDeployArgs([], { DENO_DEPLOY_ORG: "a" }), /usage: deno task deploy/);
  assert.throws(() => parseDeployArgs(["nope", "--org", "a"], {}), /unknown experiment nope/);
  assert.throws(() => parseDeployArgs(["ai-summary"], {}), /--org \(or DENO_DEPLOY_ORG\)/);
  assert.throws(
    () => parseDeployArgs(["ai-summary", "--org", "a", "--app", "Bad_Name"], {}),
    /--app/,
  );
  assert.throws(
    () => parseDeployArgs(["ai-summary", "--org", "a", "--region", "mars"], {}),
    /--region/,
  );
});

Deno.test("deploy: shell lines quote what needs quoting", () => {
  assert.equal(shellLine(["deploy", "env", "add", "K", "a b"]), "deno deploy env add K 'a b'");
  assert.equal(
    shellLine(["deploy", "env", "add", "K", "s3cret", "--secret"], new Set(["s3cret"])),
    "deno deploy env add K '***' --secret",
  );
});

Deno.test("deploy: --dry-run builds and stages the bundle alone, prints the commands, runs nothing", async () => {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", "scripts/deploy.ts", "repo-explainer", "--org", "acme", "--dry-run"],
    cwd: ROOT,
    env: { NO_COLOR: "1" },
    stdout: "piped",
    stderr: "piped",
  }).output();
  const text = new TextDecoder().decode(out.stdout);
  assert.ok(out.success, new TextDecoder().decode(out.stderr));
  const dir = stageDir("repo-explainer");
  assert.equal(text.trim(), `deno deploy . --org acme --app repo-explainer --prod`);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(
    names,
    [".gitignore", "deno.json", "repo-explainer", "repo-explainer.js", ...DOCS_ASSETS].sort(),
  );
  assert.equal(await Deno.readTextFile(`${dir}.gitignore`), STAGED_GITIGNORE);
  assert.deepEqual(JSON.parse(await Deno.readTextFile(`${dir}deno.json`)), {
    deploy: { org: "acme", app: "repo-explainer" },
  });
  assert.ok([...Deno.readDirSync(`${dir}repo-explainer`)].length > 0, "the chunks are staged");
});

Deno.test("deploy: the staged .gitignore keeps every file in for Deno's gitignore-aware file walk", async () => {
  // A repository that ignores the staging folder and every .js file, as a stricter .gitignore
  // could: Deno's walker (the one `deno fmt` and the deploy CLI's file collection share) must
  // still find both staged files once the staged folder's own .gitignore is there.
  const repo = await Deno.makeTempDir({ prefix: "deploy_gitignore_" });
  try {
    await Deno.mkdir(`${repo}/.git`);
    await Deno.writeTextFile(`${repo}/.gitignore`, "/dist/\n*.js\n");
    const staged = `${repo}/dist/deploy/x`;
    await Deno.mkdir(`${staged}/x`, { recursive: true });
    await Deno.writeTextFile(`${staged}/x.js`, "a=1\n");
    await Deno.writeTextFile(`${staged}/x/chunk.js`, "b=1\n");
    const walk = async () => {
      const out = await new Deno.Command(Deno.execPath(), {
        args: ["fmt", "--check", "--no-config", "."],
        cwd: staged,
        env: { NO_COLOR: "1" },
        stdout: "piped",
        stderr: "piped",
      }).output();
      return new TextDecoder().decode(out.stderr);
    };
    assert.match(await walk(), /No target files found/, "ignored without it");
    await Deno.writeTextFile(`${staged}/.gitignore`, STAGED_GITIGNORE);
    assert.match(await walk(), /Found 2 not formatted files in 2 files/);
  } finally {
    await Deno.remove(repo, { recursive: true });
  }
});

Deno.test("deploy: every CLI command runs in the staged folder; a failure stops the rest", async () => {
  const o = parseDeployArgs(["link-shortener", "--org", "acme", "--env-file", "x"], {});
  const env = envPlan("DB_URL=libsql://x\nDB_AUTH_TOKEN=s3cret\n");
  const commands = deployCommands(o, env, "/tmp/plain.env");
  const ran: { args: string[]; cwd: string }[] = [];
  const before = await Deno.readTextFile(new URL("deno.json", ROOT));
  // The secret's removal fails (it did not exist yet): the run goes on.
  const code = await runCommands(commands, o.dir, new Set(["s3cret"]), (args, cwd) => {
    ran.push({ args, cwd });
    return Promise.resolve(args[2] === "delete" ? 1 : 0);
  });
  assert.equal(code, 0);
  assert.deepEqual(ran.map((r) => r.args), commands);
  assert.ok(ran.every((r) => r.cwd === stageDir("link-shortener")), "in the staged folder");
  assert.equal(await Deno.readTextFile(new URL("deno.json", ROOT)), before);
  // Any other failure stops the run with its exit code.
  const stopped: string[][] = [];
  const failed = await runCommands(commands, o.dir, new Set(), (args) => {
    stopped.push(args);
    return Promise.resolve(args[2] === "load" ? 3 : 0);
  });
  assert.equal(failed, 3);
  assert.equal(stopped.length, 1);
});
