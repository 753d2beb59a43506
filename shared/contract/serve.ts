/** Starting an experiment: read the environment, build the bindings and the app, serve it. */
import { ConfigError, type Env, processEnv } from "./config.ts";
import { flushLog, logEvent } from "./log.ts";
import { type Fetcher, frontFetch, type LazyApp } from "./front.ts";

/** What every experiment's bindings may add: a way to let go of what they hold at shutdown. */
export interface Closable {
  /** Called once on SIGINT/SIGTERM before the process exits (close a browser, flush counts). */
  close?(): Promise<void>;
}

/** `HOST` in dev (`DEV_MODE=true`, set by `deno task dev`): this machine only. */
export const DEV_HOST = "127.0.0.1";
/**
 * `HOST` outside dev: every interface, Deno.serve's own default and what container platforms
 * expect (they route to the port they gave in `PORT`); Deno Deploy ignores the hostname.
 */
export const DEPLOYED_HOST = "0.0.0.0";

/** A host name or address `Deno.serve` can listen on (no scheme, port or path). */
const HOST_SYNTAX = /^(?:[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?|\[?[0-9A-Fa-f:.]+\]?)$/;

/** Whether `host` is this machine only: 127.0.0.0/8, ::1, `localhost`. */
export function isLoopbackHost(host: string): boolean {
  const h = host.replace(/^\[|\]$/g, "").toLowerCase();
  return h === "localhost" || h === "::1" || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h);
}

/**
 * Where to listen: `HOST`, by default DEV_HOST in dev and DEPLOYED_HOST elsewhere.
 * `ALLOW_PRIVATE_NETWORKS=true` turns the SSRF guard off, so with a host other machines can
 * reach, anyone on the network could use the service to fetch private addresses: that pair
 * is a ConfigError unless `ALLOW_PRIVATE_NETWORKS_REMOTELY=true` says it is meant.
 */
export function listenHostFromEnv(env: Env): string {
  const dev = env.bool("DEV_MODE", false);
  const host = env.string("HOST", dev ? DEV_HOST : DEPLOYED_HOST);
  if (!HOST_SYNTAX.test(host)) {
    throw new ConfigError(`HOST must be a host name or an IP address, got "${host.slice(0, 80)}"`);
  }
  const open = env.bool("ALLOW_PRIVATE_NETWORKS", false);
  if (open && !isLoopbackHost(host) && !env.bool("ALLOW_PRIVATE_NETWORKS_REMOTELY", false)) {
    throw new ConfigError(
      `ALLOW_PRIVATE_NETWORKS=true with HOST=${host} lets anyone who reaches this port fetch ` +
        `private addresses through it: listen on loopback (HOST=127.0.0.1), or set ` +
        `ALLOW_PRIVATE_NETWORKS_REMOTELY=true if that is meant`,
    );
  }
  return host.replace(/^\[|\]$/g, ""); // Deno.serve takes an IPv6 address bare
}

/**
 * The longest a shutdown takes from the signal to the exit. The edge ends an instance with
 * SIGINT and SIGKILLs it 5 s later: what the bindings write at shutdown (click counts) must be
 * written before that, with a margin.
 */
export const SHUTDOWN_TIMEOUT_MS = 3_500;

/** How long a shutdown lets requests in flight finish before closing the bindings anyway. */
export const DRAIN_TIMEOUT_MS = 1_000;

/**
 * Builds and serves an experiment: `bindingsFromEnv` (its config.ts) reads the environment,
 * `createApp` (its app.ts) builds the app over them; given as `lazyApp(ROOT, () =>
 * import("./app.ts"))` (shared/contract/front.ts), the app is imported and built on the first
 * request other than `GET /`, which a light front answers. A bad configuration value stops
 * start-up with one line naming the variable (exit code 1), never a 500 later. `PORT` overrides
 * `port`; `HOST` is read by listenHostFromEnv. The listening address is one JSON log line.
 */
export async function serveExperiment<B extends object>(
  port: number,
  bindingsFromEnv: (env: Env) => B | Promise<B>,
  createApp: ((bindings: B) => Fetcher) | LazyApp<B>,
): Promise<void> {
  const env = processEnv();
  let app;
  let bindings: B;
  let listenPort: number;
  let hostname: string;
  try {
    listenPort = env.int("PORT", port, 0, 65535);
    hostname = listenHostFromEnv(env);
    bindings = await bindingsFromEnv(env);
    app = typeof createApp === "function"
      ? createApp(bindings)
      : { fetch: frontFetch(createApp, bindings) };
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`config error: ${err.message}`);
      Deno.exit(1);
    }
    throw err;
  }
  const server = Deno.serve({
    port: listenPort,
    hostname,
    onListen: ({ port }) => {
      const shown = hostname.includes(":") ? `[${hostname}]` : hostname;
      logEvent({ event: "listening", message: `Listening on http://${shown}:${port}/` });
      flushLog(); // start-up tools wait for this line: no batching delay
    },
  }, app.fetch);
  let stopping = false;
  const shutdown = async () => {
    if (stopping) return;
    stopping = true;
    const deadline = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS));
    // No new connections; requests in flight finish (and count their clicks) before the
    // bindings flush what they hold.
    const drained = server.shutdown().catch(() => {});
    await Promise.race([drained, new Promise((r) => setTimeout(r, DRAIN_TIMEOUT_MS))]);
    const closing = (bindings as Closable).close?.().catch(() => {});
    await Promise.race([closing, deadline]);
    flushLog();
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, shutdown);
}
