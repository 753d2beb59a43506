/** The link-shortener's bindings from the environment (what main.ts serves). */
import { cacheFromEnv } from "../../shared/bindings/cache.ts";
import type { Env } from "../../shared/contract/config.ts";
import { dbConfigFromEnv, migrate, openDb } from "../../shared/bindings/db.ts";
import { type Bindings, DEFAULT_CACHE_TTL_SECONDS } from "./app.ts";
import { LINK_MIGRATIONS } from "./migrations.ts";

/** The local port of this experiment (DESIGN.md); `PORT` overrides it. */
export const DEFAULT_PORT = 8007;

/** File name of the default database under `DATA_DIR`. */
export const DB_FILE = "links.db";

/** Longest accepted `CACHE_TTL_SECONDS` (30 days). */
export const MAX_CACHE_TTL_SECONDS = 30 * 24 * 3600;

/**
 * Reads every variable first (a malformed one is a ConfigError naming it, before anything
 * is opened), then opens the database and brings its schema up to date.
 */
export async function bindingsFromEnv(env: Env): Promise<Bindings> {
  const dbConfig = dbConfigFromEnv(env, DB_FILE);
  const cache = cacheFromEnv(env);
  const cacheTtlSeconds = env.int(
    "CACHE_TTL_SECONDS",
    DEFAULT_CACHE_TTL_SECONDS,
    1,
    MAX_CACHE_TTL_SECONDS,
  );
  const publicBaseUrl = env.url("PUBLIC_BASE_URL");
  const db = await openDb(dbConfig);
  try {
    await migrate(db, LINK_MIGRATIONS);
  } catch (err) {
    db.close();
    throw err;
  }
  return { db, cache, cacheTtlSeconds, publicBaseUrl };
}
