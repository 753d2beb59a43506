/** The links schema: created by migration at start-up, with the unique indexes doing the work. */
import assert from "node:assert/strict";
import { appliedVersions, migrate, openDb } from "../../shared/bindings/db.ts";
import { LINK_MIGRATIONS } from "../../functions/link-shortener/migrations.ts";

Deno.test("the links migrations are versioned, idempotent, and index code uniquely", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDb({ url: `file:${dir}/links.db` });
  try {
    assert.deepEqual(await migrate(db, LINK_MIGRATIONS), [1, 2, 10]);
    assert.deepEqual(await migrate(db, LINK_MIGRATIONS), []);
    assert.deepEqual(await appliedVersions(db), [1, 2, 10]);
    const idx = await db.execute(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' ORDER BY name",
    );
    // Version 2 dropped the per-URL index: every link has its own owner now.
    assert.deepEqual(idx.rows.map((r) => r.name), ["links_code"]);
    assert.match(String(idx.rows[0].sql), /CREATE UNIQUE INDEX links_code ON links \(code\)/);
    const insert = "INSERT INTO links (code, url, custom, created_at) VALUES (?, ?, ?, 'now')";
    await db.execute({ sql: insert, args: ["abc", "https://a.example/", 1] });
    await assert.rejects(
      db.execute({ sql: insert, args: ["abc", "https://b.example/", 1] }),
      /UNIQUE constraint failed: links.code/,
    );
    await db.execute({ sql: insert, args: ["gen1", "https://a.example/", 0] });
    await db.execute({ sql: insert, args: ["gen2", "https://a.example/", 0] });
    const tables = await db.execute(
      "SELECT name FROM sqlite_master WHERE type = 'table' AND name GLOB 'link_*' ORDER BY name",
    );
    assert.deepEqual(tables.rows.map((r) => r.name), [
      "link_clicks",
      "link_clicks_daily",
      "link_password_failures",
      "link_referrers",
    ]);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
