/**
 * Environment parsing that fails fast: a malformed value stops start-up with one line that
 * names the variable, instead of becoming a 500 later.
 */

/** A bad configuration value; `message` is the one line printed at start-up. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ConfigError";
  }
}

/**
 * A binding a deployment has not been given: its message names the variables to set, and is
 * safe to send (no value of any variable is in it). Adapters reject every call with it.
 */
export class NotConfiguredError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "NotConfiguredError";
  }
}

/**
 * The global a deployment bundle sets before any of its code runs (scripts/build.ts writes
 * {@link DEPLOYMENT_PRELUDE} at the top of each entry). A deployment keeps no durable state on
 * the instance's disk unless a variable says so: at the edge that disk is per instance and
 * temporary, so data written there is gone at the next eviction.
 */
export const DEPLOYMENT_GLOBAL = "__edgeUtilityDeployment";

/** The statement a bundle's entry starts with (see {@link DEPLOYMENT_GLOBAL}). */
export const DEPLOYMENT_PRELUDE = `globalThis.${DEPLOYMENT_GLOBAL}=true;`;

/** True in a bundle built for deployment (scripts/build.ts), false in `deno task dev` and tests. */
export function isDeploymentBundle(): boolean {
  return (globalThis as Record<string, unknown>)[DEPLOYMENT_GLOBAL] === true;
}

/** Typed readers over an environment (a plain record, so tests need no real environment). */
export class Env {
  /**
   * `deployment`: the process is a deployment bundle, whose embedded defaults must not keep
   * durable data on the instance's own disk (tests pass it to see what a bundle does).
   */
  constructor(
    private readonly vars: Record<string, string | undefined>,
    readonly deployment = false,
  ) {}

  /** The raw value, or `fallback` when unset or empty. */
  string(name: string): string | undefined;
  string(name: string, fallback: string): string;
  string(name: string, fallback?: string): string | undefined {
    const value = this.vars[name]?.trim();
    return value ? value : fallback;
  }

  /** An integer within [min, max]. */
  int(name: string, fallback: number, min = 0, max = Number.MAX_SAFE_INTEGER): number {
    const raw = this.string(name);
    if (raw === undefined) return fallback;
    const n = Number(raw);
    if (!/^-?\d+$/.test(raw) || !Number.isSafeInteger(n) || n < min || n > max) {
      throw new ConfigError(`${name} must be an integer from ${min} to ${max}, got "${raw}"`);
    }
    return n;
  }

  /** `true`/`1`/`yes` or `false`/`0`/`no`. */
  bool(name: string, fallback: boolean): boolean {
    const raw = this.string(name)?.toLowerCase();
    if (raw === undefined) return fallback;
    if (["true", "1", "yes"].includes(raw)) return true;
    if (["false", "0", "no"].includes(raw)) return false;
    throw new ConfigError(`${name} must be true or false, got "${raw}"`);
  }

  /** An absolute URL whose scheme is one of `schemes`. */
  url(name: string, schemes: readonly string[] = ["http:", "https:"]): string | undefined {
    const raw = this.string(name);
    if (raw === undefined) return undefined;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      throw new ConfigError(`${name} must be an absolute URL, got "${raw.slice(0, 80)}"`);
    }
    if (!schemes.includes(url.protocol)) {
      throw new ConfigError(`${name} must use ${schemes.join(" or ")}, got ${url.protocol}`);
    }
    return raw.replace(/\/+$/, "");
  }

  /** Both or neither of two variables that only make sense together. */
  pair(a: string, b: string): [string, string] | undefined {
    const va = this.string(a);
    const vb = this.string(b);
    if (!va && !vb) return undefined;
    if (!va || !vb) throw new ConfigError(`${va ? b : a} must be set together with ${va ? a : b}`);
    return [va, vb];
  }
}

/** The process environment, read once. */
export function processEnv(): Env {
  return new Env(Deno.env.toObject(), isDeploymentBundle());
}
