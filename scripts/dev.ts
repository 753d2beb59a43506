/**
 * `deno task dev [slug …] [--ports=p1,p2,…]`: runs the experiments (all, or the slugs named)
 * with their embedded defaults on 127.0.0.1, restarts one when its files change, and prints a
 * table of their URLs.
 *
 * The runner watches the files itself instead of `deno run --watch`: a watched child that
 * calls `Deno.exit(0)` (every service does on SIGTERM, after closing its bindings) is kept
 * waiting for a change by `--watch`, so it outlived the runner. Here each child is a plain
 * `deno run`; stopping one sends it SIGTERM (it closes its browser and database), waits
 * STOP_GRACE_MS, then SIGKILLs every process that was below it (Chromium included, which
 * puppeteer starts in its own process group). A child that dies on its own is reported and
 * restarted; one that fails at start-up (a configuration error) waits for a file change.
 */
import { EXPERIMENTS } from "./experiments.ts";
import { descendants, type ProcessRef, signalAll, stillRunning } from "./process_tree.ts";

/** How long a service gets to close its bindings after SIGTERM before it is killed. */
export const STOP_GRACE_MS = 3_000;
/** A child that exits sooner than this after its start failed to start: no restart loop. */
const STARTUP_WINDOW_MS = 3_000;
/** First delay before restarting a crashed child; doubles per crash in a row, up to the max. */
const RESTART_DELAY_MS = 1_000;
const MAX_RESTART_DELAY_MS = 30_000;
/** Saves come in bursts (an editor writes, renames, touches): one restart per burst. */
const DEBOUNCE_MS = 200;
/** The runner exits by this time after a signal, whatever hangs. */
const HARD_EXIT_MS = 10_000;
/** What the runner watches, relative to the repository root. */
const WATCHED = ["functions", "shared", "deno.json"];

/** One experiment to run. */
export interface DevTarget {
  slug: string;
  port: number;
  example: string;
}

/**
 * The command line: slugs pick experiments (default all), `--ports=a,b,…` gives their ports in
 * the same order (default: scripts/experiments.ts's). Throws on an unknown slug or a bad port list.
 */
export function parseDevArgs(args: string[]): DevTarget[] {
  const slugs: string[] = [];
  let ports: number[] | undefined;
  for (const arg of args) {
    if (arg.startsWith("--ports=")) {
      ports = arg.slice("--ports=".length).split(",").map(Number);
      if (ports.some((p) => !Number.isInteger(p) || p < 1 || p > 65535)) {
        throw new Error(`--ports must be a list of ports, got "${arg}"`);
      }
    } else if (EXPERIMENTS.some((e) => e.slug === arg)) {
      slugs.push(arg);
    } else {
      throw new Error(`unknown experiment "${arg}" (one of ${EXPERIMENTS.map((e) => e.slug)})`);
    }
  }
  const chosen = slugs.length ? EXPERIMENTS.filter((e) => slugs.includes(e.slug)) : EXPERIMENTS;
  if (ports && ports.length !== chosen.length) {
    throw new Error(`--ports lists ${ports.length} ports for ${chosen.length} experiments`);
  }
  return chosen.map((e, i) => ({ slug: e.slug, port: ports?.[i] ?? e.port, example: e.example }));
}

const encoder = new TextEncoder();

/** A line from the runner itself, on stderr (the services' lines carry their slug). */
function say(line: string): void {
  Deno.stderr.writeSync(encoder.encode(`[dev] ${line}\n`));
}

/** Copies a child's output to ours, each line prefixed with the experiment's slug. */
async function prefix(
  stream: ReadableStream<Uint8Array<ArrayBuffer>>,
  slug: string,
  out: typeof Deno.stdout,
) {
  let buffered = "";
  try {
    for await (const chunk of stream.pipeThrough(new TextDecoderStream())) {
      buffered += chunk;
      const lines = buffered.split("\n");
      buffered = lines.pop() ?? "";
      for (const line of lines) await out.write(encoder.encode(`[${slug}] ${line}\n`));
    }
    if (buffered) await out.write(encoder.encode(`[${slug}] ${buffered}\n`));
  } catch {
    // our own output closed: nothing to copy to
  }
}

/** One experiment under the runner: its current child, restarts, and a stop that kills all. */
class DevService {
  private child?: Deno.ChildProcess;
  private startedAt = 0;
  private stopping = false;
  private crashes = 0;
  private restartTimer?: ReturnType<typeof setTimeout>;
  /** Set for good by close(): nothing starts again. */
  private closed = false;
  /** Stops and restarts run one after the other, never interleaved. */
  private queue: Promise<void> = Promise.resolve();

  constructor(
    readonly target: DevTarget,
    private readonly host: string,
    private readonly env: Record<string, string>,
  ) {}

  /** Where it listens (for messages). */
  get url(): string {
    const host = this.host.includes(":") ? `[${this.host}]` : this.host;
    return `http://${host}:${this.target.port}/`;
  }

  /** Starts a child (a plain `deno run`, not `--watch`: the runner watches). */
  start(): void {
    if (this.closed) return;
    this.stopping = false;
    const child = new Deno.Command(Deno.execPath(), {
      args: ["run", "-A", `functions/${this.target.slug}/main.ts`],
      env: { ...this.env, PORT: String(this.target.port) },
      stdin: "null",
      stdout: "piped",
      stderr: "piped",
    }).spawn();
    this.child = child;
    this.startedAt = performance.now();
    prefix(child.stdout, this.target.slug, Deno.stdout);
    prefix(child.stderr, this.target.slug, Deno.stderr);
    child.status.then((status) => this.exited(child, status));
  }

  /** A child ended: unless we stopped it, say so and restart it (or wait for a change). */
  private exited(child: Deno.ChildProcess, status: Deno.CommandStatus): void {
    if (this.stopping || child !== this.child) return;
    this.child = undefined;
    const after = performance.now() - this.startedAt;
    const how = status.signal ? `was killed (${status.signal})` : `exited with code ${status.code}`;
    const { slug } = this.target;
    if (after < STARTUP_WINDOW_MS && status.code !== 0 && !status.signal) {
      say(
        `${slug} ${how} at start-up: ${this.url} is down. Fix the error above and save a file ` +
          `to restart it (Ctrl-C stops everything).`,
      );
      return;
    }
    this.crashes = after > STARTUP_WINDOW_MS * 10 ? 1 : this.crashes + 1;
    const delay = Math.min(RESTART_DELAY_MS * 2 ** (this.crashes - 1), MAX_RESTART_DELAY_MS);
    say(
      `${slug} ${how} after ${(after / 1000).toFixed(1)} s: ${this.url} is down; restarting in ${
        delay / 1000
      } s.`,
    );
    this.restartTimer = setTimeout(() => {
      this.restartTimer = undefined;
      if (!this.stopping && !this.child) this.start();
    }, delay);
  }

  /**
   * Stops the child and everything below it: SIGTERM (the service closes its browser and
   * database), up to STOP_GRACE_MS, then SIGKILL to every process that was below it before
   * or is below it now. Resolves once none of them runs.
   */
  private async stop(): Promise<void> {
    this.stopping = true;
    clearTimeout(this.restartTimer);
    this.restartTimer = undefined;
    const child = this.child;
    this.child = undefined;
    if (!child) return;
    const before: ProcessRef[] = await descendants(child.pid);
    try {
      child.kill("SIGTERM");
    } catch {
      // already gone
    }
    const ended = await Promise.race([
      child.status.then(() => true),
      new Promise<false>((resolve) => setTimeout(() => resolve(false), STOP_GRACE_MS)),
    ]);
    const below = [...before, ...(ended ? [] : await descendants(child.pid))];
    if (!ended) {
      try {
        child.kill("SIGKILL");
      } catch {
        // ended meanwhile
      }
    }
    await signalAll(below, "SIGKILL");
    await child.status;
    for (let i = 0; i < 50 && (await stillRunning(below)).length > 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }

  /** Stops and starts it again (a file changed). */
  restart(): Promise<void> {
    this.queue = this.queue.then(async () => {
      await this.stop();
      this.crashes = 0;
      this.start();
    });
    return this.queue;
  }

  /** Stops it for good (the runner is exiting). */
  close(): Promise<void> {
    this.closed = true;
    this.queue = this.queue.then(() => this.stop());
    return this.queue;
  }
}

/** Which services a changed path concerns: its experiment's, or all for shared code/config. */
function affected(paths: string[], services: DevService[], root: string): DevService[] {
  const hit = new Set<DevService>();
  for (const path of paths) {
    if (!/\.(ts|json)$/.test(path)) continue;
    const rel = path.startsWith(root) ? path.slice(root.length) : path;
    const slug = rel.match(/^functions\/([^/]+)\//)?.[1];
    for (const s of services) if (!slug || s.target.slug === slug) hit.add(s);
  }
  return [...hit];
}

/** Runs the runner until SIGINT/SIGTERM. */
async function main(): Promise<void> {
  let targets: DevTarget[];
  try {
    targets = parseDevArgs(Deno.args);
  } catch (err) {
    say((err as Error).message);
    Deno.exit(2);
  }
  const root = new URL("../", import.meta.url).pathname;
  Deno.chdir(root);
  // Loopback unless told otherwise: with ALLOW_PRIVATE_NETWORKS, a service reachable from
  // the network would fetch private addresses for anyone who can reach it.
  const host = Deno.env.get("HOST") || "127.0.0.1";
  const env = {
    HOST: host,
    DEV_MODE: "true",
    PUBLIC_BUCKET_URL: Deno.env.get("PUBLIC_BUCKET_URL") ??
      `http://localhost:${targets.find((t) => t.slug === "object-storage")?.port ?? 8008}/public`,
  };
  const services = targets.map((t) => new DevService(t, host, env));
  for (const service of services) service.start();

  const shown = host === "0.0.0.0" || host === "::" ? "localhost" : host;
  console.log("\nEdge Utility Services (dev)\n");
  console.log("experiment            URL");
  for (const { slug, port, example } of targets) {
    console.log(`${slug.padEnd(21)} http://${shown}:${port}/   e.g. ${example}`);
  }
  console.log(
    `\nEach serves GET / (what it is), /openapi.json and /docs. Listening on ${host}` +
      (host === "127.0.0.1" ? " (this machine only; HOST=0.0.0.0 opens it up)" : "") +
      ". Ctrl-C stops all.\n",
  );

  const watcher = Deno.watchFs(WATCHED, { recursive: true });
  let shuttingDown = false;
  const shutdown = async (signal: Deno.Signal) => {
    if (shuttingDown) return;
    shuttingDown = true;
    setTimeout(() => Deno.exit(1), HARD_EXIT_MS);
    say(`${signal}: stopping ${services.length} services…`);
    watcher.close();
    await Promise.all(services.map((s) => s.close()));
    say("all stopped.");
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) {
    Deno.addSignalListener(signal, () => shutdown(signal));
  }

  let pending: string[] = [];
  let timer: ReturnType<typeof setTimeout> | undefined;
  for await (const event of watcher) {
    if (event.kind === "access" || shuttingDown) continue;
    pending.push(...event.paths);
    clearTimeout(timer);
    timer = setTimeout(() => {
      const hit = affected(pending, services, root);
      pending = [];
      if (hit.length === 0 || shuttingDown) return;
      say(`change detected: restarting ${hit.map((s) => s.target.slug).join(", ")}`);
      for (const service of hit) service.restart();
    }, DEBOUNCE_MS);
  }
}

if (import.meta.main) await main();
