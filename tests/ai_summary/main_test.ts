/** ai-summary's entrypoint: a malformed setting stops start-up with one line naming it. */
import assert from "node:assert/strict";

const ROOT_DIR = new URL("../../", import.meta.url);
const ENTRY = "functions/ai-summary/main.ts";

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

Deno.test("ai-summary main: a malformed setting is one config-error line and exit code 1", async () => {
  const cases: [Record<string, string>, string][] = [
    [{ AI_TIMEOUT_MS: "soon" }, "AI_TIMEOUT_MS must be an integer"],
    [{ AI_BASE_URL: "nowhere" }, "AI_BASE_URL must be an absolute URL"],
    [{ HF_TOKEN: "hf_x", AI_PROVIDER: "x" }, "AI_PROVIDER must be one of"],
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
