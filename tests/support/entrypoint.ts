/**
 * An experiment's main.ts run as a process, the way `deno task dev:<slug>` runs it: for tests of
 * start-up (embedded defaults, configuration errors, signals).
 */
import assert from "node:assert/strict";

const ROOT_DIR = new URL("../../", import.meta.url);

/** The permissions of an edge isolate (the build's list, re-exported for start-up tests). */
export { EDGE_PERMISSIONS } from "../../scripts/build.ts";
const START_DEADLINE_MS = 30_000;

/** The environment every run gets: a free port on loopback, no colours in the output. */
function baseEnv(env: Record<string, string>): Record<string, string> {
  return { PORT: "0", HOST: "127.0.0.1", NO_COLOR: "1", ...env };
}

/**
 * Reads a child's stderr until Deno.serve announces its port (or the child exits, or stays
 * silent for 30 s and is killed). Returns the port (undefined if it never listened) and what
 * was printed; the caller keeps reading `reader` so the child never blocks on a full pipe.
 */
export async function readUntilListening(
  child: Deno.ChildProcess,
  reader: ReadableStreamDefaultReader<string>,
): Promise<{ port: string | undefined; out: string }> {
  const watchdog = setTimeout(() => child.kill("SIGKILL"), START_DEADLINE_MS);
  let out = "";
  let port: string | undefined;
  try {
    while (!port) {
      const { value, done } = await reader.read();
      if (done) break;
      out += value;
      port = out.match(/Listening on https?:\/\/[^:]+:(\d+)/)?.[1];
    }
  } finally {
    clearTimeout(watchdog);
  }
  return { port, out };
}

/** A started experiment. */
export interface RunningEntrypoint {
  child: Deno.ChildProcess;
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Everything it wrote to stderr so far (the first 1 MiB). */
  stderr(): string;
  /** Kills the process (SIGKILL unless told) and waits for it and its output to end. */
  stop(signal?: Deno.Signal): Promise<void>;
}

/**
 * Starts `functions/<slug>/main.ts` (with `permissions`, default all); resolves once it
 * listens. Deno.serve announces the port on stderr; a process that exits or stays silent for
 * 30 s fails with what it printed.
 */
export async function startEntrypoint(
  slug: string,
  env: Record<string, string> = {},
  permissions: readonly string[] = ["-A"],
): Promise<RunningEntrypoint> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...permissions, `functions/${slug}/main.ts`],
    cwd: ROOT_DIR,
    env: baseEnv(env),
    stdout: "piped",
    stderr: "piped",
  }).spawn();
  const stdout = child.stdout.pipeTo(new WritableStream()).catch(() => {});
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let { port, out } = await readUntilListening(child, reader);
  // Keep draining stderr (the request log) so the child never blocks on a full pipe.
  const drained = (async () => {
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      if (out.length < 1 << 20) out += value;
    }
  })().catch(() => {});
  const stop = async (signal: Deno.Signal = "SIGKILL") => {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
    await child.status;
    await drained;
    await stdout;
  };
  if (!port) {
    await stop();
    throw new Error(`${slug} did not start: ${out}`);
  }
  return { child, origin: `http://127.0.0.1:${port}`, stop, stderr: () => out };
}

/** Runs `functions/<slug>/main.ts` to its end; resolves with its exit code and stderr. */
export async function runEntrypoint(slug: string, env: Record<string, string>) {
  const out = await new Deno.Command(Deno.execPath(), {
    args: ["run", "-A", `functions/${slug}/main.ts`],
    cwd: ROOT_DIR,
    env: baseEnv(env),
    stdout: "null",
    stderr: "piped",
  }).output();
  return { code: out.code, stderr: new TextDecoder().decode(out.stderr).trim() };
}

/**
 * Asserts that `env` stops start-up with exit code 1 and exactly one line,
 * `config error: <message>…`.
 */
export async function assertConfigError(
  slug: string,
  env: Record<string, string>,
  message: string,
): Promise<void> {
  const { code, stderr } = await runEntrypoint(slug, env);
  assert.equal(code, 1, stderr);
  assert.equal(stderr.split("\n").length, 1, stderr);
  assert.ok(stderr.startsWith(`config error: ${message}`), stderr);
}
