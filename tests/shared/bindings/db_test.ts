/** The DB binding: configuration from the env, opening a file database, and the migration runner. */
import assert from "node:assert/strict";
import { ConfigError, Env } from "../../../shared/contract/config.ts";
import {
  appliedVersions,
  dbConfigFromEnv,
  filePathOf,
  migrate,
  type Migration,
  openDb,
} from "../../../shared/bindings/db.ts";

Deno.test("dbConfigFromEnv: DB_URL and DB_AUTH_TOKEN, else a file under DATA_DIR", () => {
  const cfg = (vars: Record<string, string>) => dbConfigFromEnv(new Env(vars), "x.db");
  assert.deepEqual(cfg({}), { url: "file:.data/x.db", authToken: undefined });
  assert.deepEqual(cfg({ DATA_DIR: "/var/lib/app/" }), {
    url: "file:/var/lib/app/x.db",
    authToken: undefined,
  });
  assert.deepEqual(cfg({ DB_URL: "libsql://db-org.turso.io", DB_AUTH_TOKEN: "tok" }), {
    url: "libsql://db-org.turso.io",
    authToken: "tok",
  });
  assert.equal(cfg({ DB_URL: ":memory:" }).url, ":memory:");
  assert.equal(cfg({ DB_URL: "file:///tmp/a.db" }).url, "file:///tmp/a.db");
  for (const bad of ["postgres://h/db", "not a url", "mysql://u:p@h/db"]) {
    assert.throws(() => cfg({ DB_URL: bad }), ConfigError, bad);
  }
  // A credential in a malformed URL is not echoed.
  assert.throws(() => cfg({ DB_URL: "libsql://user:secret@[bad" }), (err: Error) => {
    assert.ok(err instanceof ConfigError);
    assert.doesNotMatch(err.message, /secret/);
    return true;
  });
});

Deno.test("filePathOf: the local path of file: URLs only", () => {
  assert.equal(filePathOf("file:.data/links.db"), ".data/links.db");
  assert.equal(filePathOf("file:/abs/links.db"), "/abs/links.db");
  assert.equal(filePathOf("file:///abs/my%20links.db"), "/abs/my links.db");
  assert.equal(filePathOf("libsql://h"), null);
});

const MIGRATIONS: Migration[] = [
  { version: 1, name: "a", statements: ["CREATE TABLE a (x TEXT)"] },
  { version: 2, name: "b", statements: ["CREATE TABLE b (y TEXT)", "INSERT INTO b VALUES ('1')"] },
];

Deno.test("openDb + migrate: creates the folder, applies each version once, in order", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDb({ url: `file:${dir}/nested/deeper/t.db` });
  try {
    assert.ok((await Deno.stat(`${dir}/nested/deeper`)).isDirectory);
    const mode = await db.execute("PRAGMA journal_mode");
    assert.equal(String(mode.rows[0][0]).toLowerCase(), "wal");
    assert.deepEqual(await migrate(db, [MIGRATIONS[1], MIGRATIONS[0]]), [1, 2]);
    assert.deepEqual(await migrate(db, MIGRATIONS), [], "idempotent");
    const more = [...MIGRATIONS, { version: 3, name: "c", statements: ["CREATE TABLE c (z)"] }];
    assert.deepEqual(await migrate(db, more), [3], "only the new version runs");
    assert.deepEqual(await appliedVersions(db), [1, 2, 3]);
    const rows = await db.execute("SELECT count(*) AS n FROM b");
    assert.equal(rows.rows[0].n, 1, "version 2's insert ran once");
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("migrate: a failing version is rolled back whole and not recorded", async () => {
  const dir = await Deno.makeTempDir();
  const db = await openDb({ url: `file:${dir}/t.db` });
  try {
    const broken: Migration[] = [
      MIGRATIONS[0],
      { version: 2, name: "broken", statements: ["CREATE TABLE half (x)", "NOT SQL AT ALL"] },
    ];
    await assert.rejects(migrate(db, broken));
    assert.deepEqual(await appliedVersions(db), [1]);
    const half = await db.execute("SELECT name FROM sqlite_master WHERE name = 'half'");
    assert.equal(half.rows.length, 0, "the half-done step was rolled back");
    assert.deepEqual(await migrate(db, MIGRATIONS), [2], "the fixed version applies later");
    await assert.rejects(
      migrate(db, [MIGRATIONS[0], { ...MIGRATIONS[0], name: "dup" }]),
      /distinct positive/,
    );
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
