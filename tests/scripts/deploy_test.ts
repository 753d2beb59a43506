/** scripts/deploy.ts: the arguments it accepts, the `deno deploy` commands it would run. */
import assert from "node:assert/strict";
import { DOCS_ASSETS } from "../../shared/contract/docs.ts";
import {
  deployCommands,
  type DeployOptions,
  parseDeployArgs,
  shellLine,
  stageDir,
} from "../../scripts/deploy.ts";

const ROOT = new URL("../../", import.meta.url);

Deno.test("deploy: production deploy of an existing app", () => {
  const o = parseDeployArgs(["object-storage", "--org", "acme"], {});
  assert.equal(o.app, "object-storage");
  assert.equal(o.dir, stageDir("object-storage"));
  assert.deepEqual(deployCommands(o), [
    ["deploy", o.dir, "--org", "acme", "--app", "object-storage", "--prod"],
  ]);
});

Deno.test("deploy: --create makes a local-source dynamic app on the bundle, then env, then prod", () => {
  const o = parseDeployArgs(
    ["screenshot", "--app", "shots", "--create", "--region", "eu", "--env-file", ".env.shots"],
    { DENO_DEPLOY_ORG: "acme" },
  );
  const [create, env, deploy] = deployCommands(o);
  assert.deepEqual(create, [
    "deploy",
    "create",
    o.dir,
    "--org",
    "acme",
    "--app",
    "shots",
    "--source",
    "local",
    "--runtime-mode",
    "dynamic",
    "--entrypoint",
    "screenshot.js",
    "--do-not-use-detected-build-config",
    "--region",
    "eu",
  ]);
  assert.deepEqual(env, ["deploy", "env", "load", ".env.shots", "--org", "acme", "--app", "shots"]);
  assert.deepEqual(deploy, ["deploy", o.dir, "--org", "acme", "--app", "shots", "--prod"]);
  // Without an env file, create's own first deployment is the deployment.
  const bare: DeployOptions = { ...o, envFile: undefined };
  assert.equal(deployCommands(bare).length, 1);
  assert.deepEqual(deployCommands({ ...o, create: false, envFile: undefined, preview: true }), [
    ["deploy", o.dir, "--org", "acme", "--app", "shots"],
  ]);
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
  assert.equal(text.trim(), `deno deploy ${dir} --org acme --app repo-explainer --prod`);
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).sort();
  assert.deepEqual(
    names,
    ["deno.json", "repo-explainer", "repo-explainer.js", ...DOCS_ASSETS].sort(),
  );
  assert.deepEqual(JSON.parse(await Deno.readTextFile(`${dir}deno.json`)), {
    deploy: { org: "acme", app: "repo-explainer" },
  });
  assert.ok([...Deno.readDirSync(`${dir}repo-explainer`)].length > 0, "the chunks are staged");
});
