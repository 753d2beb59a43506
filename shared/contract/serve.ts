/** Starting an experiment: read the environment, build the bindings and the app, serve it. */
import { ConfigError, type Env, processEnv } from "./config.ts";
import { flushLog } from "./log.ts";
import { type Fetcher, frontFetch, type LazyApp } from "./front.ts";

/** What every experiment's bindings may add: a way to let go of what they hold at shutdown. */
export interface Closable {
  /** Called once on SIGINT/SIGTERM before the process exits (close a browser, flush counts). */
  close?(): Promise<void>;
}

/** The longest a shutdown waits for the bindings to close. */
export const SHUTDOWN_TIMEOUT_MS = 5_000;

/**
 * Builds and serves an experiment: `bindingsFromEnv` (its config.ts) reads the environment,
 * `createApp` (its app.ts) builds the app over them; given as `lazyApp(ROOT, () =>
 * import("./app.ts"))` (shared/contract/front.ts), the app is imported and built on the first
 * request other than `GET /`, which a light front answers. A bad configuration value stops
 * start-up with one line naming the variable (exit code 1), never a 500 later. `PORT` overrides
 * `port`.
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
  try {
    listenPort = env.int("PORT", port, 0, 65535);
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
  const hostname = env.string("HOST", "0.0.0.0");
  Deno.serve({ port: listenPort, hostname }, app.fetch);
  const shutdown = async () => {
    const closing = (bindings as Closable).close?.().catch(() => {});
    const deadline = new Promise((resolve) => setTimeout(resolve, SHUTDOWN_TIMEOUT_MS));
    await Promise.race([closing, deadline]);
    flushLog();
    Deno.exit(0);
  };
  for (const signal of ["SIGINT", "SIGTERM"] as const) Deno.addSignalListener(signal, shutdown);
}
