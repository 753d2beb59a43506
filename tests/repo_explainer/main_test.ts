/** repo-explainer's entrypoint: a malformed setting stops start-up with one line naming it. */
import assert from "node:assert/strict";

const ROOT_DIR = new URL("../../", import.meta.url);
const ENTRY = "functions/repo-explainer/main.ts";

/** Runs the entrypoint with `env`; resolves with its exit code and stderr. */
async function run(env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", ENTRY],
    cwd: ROOT_DIR,
    env: { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1", ...env },
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr) };
}

Deno.test("repo-explainer main: a malformed setting is one config-error line and exit code 1", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ AI_TIMEOUT_MS: "0.5" }, "AI_TIMEOUT_MS must be an integer"],
    [{ GITHUB_API_URL: "api" }, "GITHUB_API_URL must be an absolute URL"],
    [{ FETCH_TIMEOUT_MS: "-1" }, "FETCH_TIMEOUT_MS must be an integer"],
  ];
  const results = await Promise.all(cases.map(([env]) => run(env)));
  for (const [i, { code, stderr }] of results.entries()) {
    const message = cases[i][1];
    assert.equal(code, 1, stderr);
    const lines = stderr.trim().split("\n").filter((l) => l.startsWith("config error:"));
    assert.equal(lines.length, 1, stderr);
    assert.ok(lines[0].startsWith(`config error: ${message}`), lines[0]);
  }
});
