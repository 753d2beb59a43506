/**
 * The built bundles as an edge isolate runs them: `deno task build`'s output in a temp folder
 * of its own (no deno.json, no node_modules, no lock file), each bundle started with
 * `deno run` under the edge permissions and only the environment the test gives it.
 */
import { build, EDGE_PERMISSIONS } from "../../scripts/build.ts";
import { readUntilListening } from "../support/entrypoint.ts";

/** The bundles of every experiment, built once into `dir`. */
export interface BuiltBundles {
  /** The folder: `<slug>.js`, `<slug>/` chunks, the `/docs` files, and nothing else. */
  dir: string;
  /** Removes the folder. */
  remove(): Promise<void>;
}

/** Builds every experiment's bundle into a new temp folder. */
export async function buildBundles(): Promise<BuiltBundles> {
  const dir = await Deno.makeTempDir({ prefix: "edge-bundles-" });
  try {
    await build(undefined, new URL(`file://${dir}/`));
  } catch (err) {
    await Deno.remove(dir, { recursive: true });
    throw err;
  }
  return { dir, remove: () => Deno.remove(dir, { recursive: true }) };
}

/** A started bundle. */
export interface BundleProcess {
  /** `http://127.0.0.1:<port>` */
  origin: string;
  /** Everything the process wrote to stderr so far (its JSON log lines). */
  log(): string;
  /** Kills the process and waits for it and its output to end. */
  stop(): Promise<void>;
}

/**
 * Starts `<dir>/<slug>.js` under EDGE_PERMISSIONS, cwd `dir`, with `env` plus a free port on
 * loopback and nothing else from the test's environment; resolves once it listens. A process
 * that exits or stays silent for 30 s fails with what it printed.
 */
export async function startBundle(
  dir: string,
  slug: string,
  env: Record<string, string>,
): Promise<BundleProcess> {
  const child = new Deno.Command(Deno.execPath(), {
    args: ["run", ...EDGE_PERMISSIONS, `${slug}.js`],
    cwd: dir,
    clearEnv: true,
    env: {
      PORT: "0",
      HOST: "127.0.0.1",
      NO_COLOR: "1",
      // Deno's own caches and the way home; nothing of the test's configuration.
      ...pick(Deno.env.toObject(), ["HOME", "DENO_DIR", "PATH", "TMPDIR"]),
      ...env,
    },
    stdin: "null",
    stdout: "null",
    stderr: "piped",
  }).spawn();
  const reader = child.stderr.pipeThrough(new TextDecoderStream()).getReader();
  let { port, out } = await readUntilListening(child, reader);
  // Keep reading stderr (the request log) so the child never blocks on a full pipe.
  const drained = (async () => {
    for (let r = await reader.read(); !r.done; r = await reader.read()) out += r.value;
  })().catch(() => {});
  const stop = async () => {
    try {
      child.kill("SIGKILL");
    } catch {
      // already exited
    }
    await child.status;
    await drained;
  };
  if (!port) {
    await stop();
    throw new Error(`${slug}.js did not start under edge permissions:\n${out.slice(-2000)}`);
  }
  return { origin: `http://127.0.0.1:${port}`, log: () => out, stop };
}

/** The entries of `all` named in `keys` that are set. */
function pick(all: Record<string, string>, keys: string[]): Record<string, string> {
  return Object.fromEntries(keys.filter((k) => all[k] !== undefined).map((k) => [k, all[k]]));
}

/** A loopback address where nothing listens: a remote service that is down. */
export function downOrigin(): string {
  const listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const { port } = listener.addr as Deno.NetAddr;
  listener.close();
  return `http://127.0.0.1:${port}`;
}
