/** The link-shortener's schema, as versioned migrations (applied at start-up by `migrate`). */
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
];
