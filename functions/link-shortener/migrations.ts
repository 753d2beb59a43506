/** The link-shortener's schema, as versioned migrations (applied on first use by `Db`). */
import type { Migration } from "../../shared/bindings/db.ts";

/**
 * Version 1: the links table. `code` is unique (the index, not a check-then-insert, decides
 * who wins a race for a code). Links made with a generated code are unique per url and
 * expiry, so concurrent posts of one URL share one link instead of racing to make several.
 */
export const LINK_MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: "create links",
    statements: [
      `CREATE TABLE links (
        id INTEGER PRIMARY KEY,
        code TEXT NOT NULL,
        url TEXT NOT NULL,
        custom INTEGER NOT NULL DEFAULT 0,
        created_at TEXT NOT NULL,
        expires_at TEXT
      )`,
      "CREATE UNIQUE INDEX links_code ON links (code)",
      "CREATE UNIQUE INDEX links_generated_url ON links (url, ifnull(expires_at, '')) WHERE custom = 0",
    ],
  },
  {
    // Version 2: management and click analytics. Every link now has an owner (the holder of
    // its manage token) who may re-point or delete it, so one link is no longer handed to
    // several posters of the same URL: the per-URL unique index goes. Clicks are kept per
    // code: a total with the last click, per UTC day, and per referrer host (hosts only).
    version: 2,
    name: "manage tokens and click analytics",
    statements: [
      "ALTER TABLE links ADD COLUMN manage_hash TEXT",
      "DROP INDEX links_generated_url",
      `CREATE TABLE link_clicks (
        code TEXT PRIMARY KEY,
        total INTEGER NOT NULL,
        last_click_at TEXT NOT NULL
      )`,
      `CREATE TABLE link_clicks_daily (
        code TEXT NOT NULL,
        day TEXT NOT NULL,
        clicks INTEGER NOT NULL,
        PRIMARY KEY (code, day)
      )`,
      `CREATE TABLE link_referrers (
        code TEXT NOT NULL,
        host TEXT NOT NULL,
        clicks INTEGER NOT NULL,
        PRIMARY KEY (code, host)
      )`,
    ],
  },
  {
    // Password-protected and click-limited links, and UTM parameters. Numbered apart from
    // the versions before it (versions need only be distinct: each one not yet recorded is
    // applied, in order), so a version added meanwhile elsewhere does not collide with it.
    // `password_hash` is a PBKDF2 record (password.ts), never the password. `clicks_used` is
    // counted in the statement that admits a redirect, so the limit holds across instances.
    // Wrong passwords are counted per link, in the database, for the same reason.
    version: 10,
    name: "password, click limit and utm",
    statements: [
      "ALTER TABLE links ADD COLUMN password_hash TEXT",
      "ALTER TABLE links ADD COLUMN max_clicks INTEGER",
      "ALTER TABLE links ADD COLUMN clicks_used INTEGER NOT NULL DEFAULT 0",
      "ALTER TABLE links ADD COLUMN utm TEXT",
      `CREATE TABLE link_password_failures (
        code TEXT PRIMARY KEY,
        failures INTEGER NOT NULL,
        blocked_until INTEGER NOT NULL
      )`,
    ],
  },
];
