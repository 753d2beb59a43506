/** The links schema: created by migration at start-up, with the unique indexes doing the work. */
import assert from "node:assert/strict";
import { appliedVersions, migrate, openDb } from "../../shared/bindings/db.ts";
import { LINK_MIGRATIONS } from "../../functions/link-shortener/migrations.ts";

Deno.test("the links migration is versioned, idempotent, and indexes code uniquely", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDb({ url: `file:${dir}/links.db` });
  try {
    assert.deepEqual(await migrate(db, LINK_MIGRATIONS), [1]);
    assert.deepEqual(await migrate(db, LINK_MIGRATIONS), []);
    assert.deepEqual(await appliedVersions(db), [1]);
    const idx = await db.execute(
      "SELECT name, sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'links' ORDER BY name",
    );
    assert.deepEqual(idx.rows.map((r) => r.name), ["links_code", "links_generated_url"]);
    assert.match(String(idx.rows[0].sql), /CREATE UNIQUE INDEX links_code ON links \(code\)/);
    const insert = "INSERT INTO links (code, url, custom, created_at) VALUES (?, ?, ?, 'now')";
    await db.execute({ sql: insert, args: ["abc", "https://a.example/", 1] });
    await assert.rejects(
      db.execute({ sql: insert, args: ["abc", "https://b.example/", 1] }),
      /UNIQUE constraint failed: links.code/,
    );
    // Generated links are unique per url (and expiry); custom ones are not.
    await db.execute({ sql: insert, args: ["gen1", "https://a.example/", 0] });
    await assert.rejects(
      db.execute({ sql: insert, args: ["gen2", "https://a.example/", 0] }),
      /UNIQUE constraint failed/,
    );
    await db.execute({ sql: insert, args: ["cus2", "https://a.example/", 1] });
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
