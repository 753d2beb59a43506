/** Starting an experiment: read the environment, build the app, serve it. */
import { ConfigError, type Env, processEnv } from "./config.ts";

/** What an experiment's main.ts hands to `serveExperiment`. */
export interface ServeOptions {
  /** The experiment's default port (DESIGN.md's table); `PORT` overrides it. */
  port: number;
  /** Builds the app (and its bindings) from the environment; may throw ConfigError. */
  build(env: Env): Promise<{ fetch: (req: Request) => Response | Promise<Response> }> | {
    fetch: (req: Request) => Response | Promise<Response>;
  };
}

/**
 * Builds and serves an experiment. A bad configuration value stops start-up with one line
 * naming the variable (exit code 1), never a 500 later.
 */
export async function serveExperiment(options: ServeOptions): Promise<void> {
  const env = processEnv();
  let app;
  let port;
  try {
    port = env.int("PORT", options.port, 0, 65535);
    app = await options.build(env);
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(`config error: ${err.message}`);
      Deno.exit(1);
    }
    throw err;
  }
  Deno.serve({ port, hostname: env.string("HOST", "0.0.0.0") }, app.fetch);
}
