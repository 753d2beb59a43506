/** The DB binding: configuration from the env, opening a file database, and the migration runner. */
import assert from "node:assert/strict";
import { ConfigError, Env } from "../../../shared/contract/config.ts";
import { endedByDeadline } from "../../support/deadline_race.ts";
import { startHranaServer } from "../../support/hrana_server.ts";
import {
  appliedVersions,
  checkRemoteUrl,
  Db,
  dbConfigFromEnv,
  dbFromEnv,
  filePathOf,
  migrate,
  type Migration,
  openDb,
} from "../../../shared/bindings/db.ts";

Deno.test("dbConfigFromEnv: DB_URL and DB_AUTH_TOKEN, else a file under DATA_DIR", () => {
  const cfg = (vars: Record<string, string>) => dbConfigFromEnv(new Env(vars), "x.db");
  assert.deepEqual(cfg({}), { url: "file:.data/x.db", authToken: undefined, timeoutMs: 5000 });
  assert.deepEqual(cfg({ DATA_DIR: "/var/lib/app/" }), {
    url: "file:/var/lib/app/x.db",
    authToken: undefined,
    timeoutMs: 5000,
  });
  assert.deepEqual(cfg({ DB_URL: "libsql://db-org.turso.io", DB_AUTH_TOKEN: "tok" }), {
    url: "libsql://db-org.turso.io",
    authToken: "tok",
    timeoutMs: 5000,
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

Deno.test("checkRemoteUrl: what the web client would refuse is a ConfigError naming DB_URL", () => {
  for (const url of ["libsql://db.turso.io", "https://h", "http://h:8080", "wss://h", "ws://h"]) {
    checkRemoteUrl({ url });
  }
  checkRemoteUrl({ url: "libsql://h:8080?tls=0" });
  const refused = [
    "https://h?tls=0",
    "wss://h?tls=0",
    "http://h?tls=1",
    "ws://h?tls=1",
    "libsql://h?tls=0", // without a port
    "libsql://h?tls=2",
    "https://h?mode=x",
    "https://h#frag",
    "https://user:secret@h?tls=0",
  ];
  for (const url of refused) {
    assert.throws(() => checkRemoteUrl({ url }), (err: Error) => {
      assert.ok(err instanceof ConfigError, url);
      assert.match(err.message, /^DB_URL is not usable: /, url);
      assert.doesNotMatch(err.message, /secret/, url);
      return true;
    });
  }
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

Deno.test("Db over Hrana (remote): the web client; migrated once on first use by 20 concurrent callers", async () => {
  const dir = await Deno.makeTempDir();
  await using server = await startHranaServer({ path: `${dir}/remote.db`, token: "secret" });
  const db = new Db({ url: server.url, authToken: "secret" }, MIGRATIONS);
  try {
    assert.equal(server.pipelines, 0, "nothing sent before the first use");
    const clients = await Promise.all(Array.from({ length: 20 }, () => db.client()));
    assert.equal(new Set(clients).size, 1);
    assert.equal(clients[0].protocol, "http", "the web client over HTTP");
    assert.deepEqual(await appliedVersions(db), [1, 2]);
    const rows = await db.execute("SELECT count(*) AS n FROM b");
    assert.equal(rows.rows[0].n, 1, "version 2 ran once");
    const [ins] = await db.batch([{ sql: "INSERT INTO a VALUES (?)", args: ["x"] }]);
    assert.equal(ins.rowsAffected, 1);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("migrate: a current schema is told by one request, a new version takes the full path", async () => {
  const dir = await Deno.makeTempDir();
  await using server = await startHranaServer({ path: `${dir}/remote.db` });
  const first = new Db({ url: server.url }, MIGRATIONS);
  try {
    await first.client();
  } finally {
    first.close();
  }
  const migrated = server.pipelines;
  const again = new Db({ url: server.url }, MIGRATIONS);
  try {
    await again.client();
    assert.equal(server.pipelines - migrated, 1, "one read of schema_migrations");
    const client = await again.client();
    const more = [...MIGRATIONS, { version: 3, name: "c", statements: ["CREATE TABLE c (z)"] }];
    assert.deepEqual(await migrate(client, more), [3]);
    assert.deepEqual(await appliedVersions(client), [1, 2, 3]);
  } finally {
    again.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Db over Hrana: down at first use rejects, and the next call after recovery migrates", async () => {
  const dir = await Deno.makeTempDir();
  await using server = await startHranaServer({ path: `${dir}/remote.db` });
  const config = { url: server.url, timeoutMs: 1_000 };
  const db = new Db(config, MIGRATIONS);
  try {
    server.mode = "error";
    await assert.rejects(db.execute("SELECT 1"), /503|fake outage/);
    await assert.rejects(db.client());
    server.mode = "ok";
    assert.equal((await db.execute("SELECT 1 AS one")).rows[0].one, 1);
    assert.deepEqual(await appliedVersions(db), [1, 2]);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Db over Hrana: a hanging server fails each call at its deadline", async () => {
  const dir = await Deno.makeTempDir();
  await using server = await startHranaServer({ path: `${dir}/remote.db` });
  const config = { url: server.url, timeoutMs: 300 };
  const db = new Db(config, MIGRATIONS);
  try {
    await db.client();
    server.mode = "hang";
    const started = performance.now();
    await assert.rejects(
      endedByDeadline(db.execute("SELECT 1"), 300),
      /300 ms|TimeoutError|timed out|abort/i,
    );
    const elapsed = performance.now() - started;
    assert.ok(elapsed >= 250, `gave up early, after ${elapsed} ms`);
  } finally {
    server.mode = "ok";
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("Db (file): a corrupt file rejects each call (no crash), and works once replaced", async () => {
  const dir = await Deno.makeTempDir();
  const path = `${dir}/bad.db`;
  await Deno.writeTextFile(path, "garbage ".repeat(1000));
  const db = new Db({ url: `file:${path}` }, MIGRATIONS);
  try {
    await assert.rejects(db.execute("SELECT 1"), /not a database|NOTADB/i);
    await Deno.remove(path);
    assert.equal((await db.execute("SELECT 1 AS one")).rows[0].one, 1);
    assert.deepEqual(await appliedVersions(db), [1, 2]);
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("dbFromEnv: a remote URL is served by the web client without loading the native one", async () => {
  const db = dbFromEnv(
    new Env({ DB_URL: "libsql://db-org.turso.io", DB_TIMEOUT_MS: "700" }),
    "x.db",
    [],
  );
  assert.equal(db.timeoutMs, 700);
  db.close();
  // The module graph of the binding never names the native entry statically.
  const source = await Deno.readTextFile(
    new URL("../../../shared/bindings/db.ts", import.meta.url),
  );
  assert.doesNotMatch(source, /from "@libsql\/client"/);
  assert.match(source, /import\("@libsql\/client\/sqlite3"\)/);
  // Nor the web client: it is imported when the database is first opened.
  assert.doesNotMatch(source, /^import (?!type)[^;]*"@libsql\/client\/web"/m);
  assert.match(source, /import\("@libsql\/client\/web"\)/);
});

Deno.test("dbFromEnv: a WebSocket URL is not contacted before the first call", async () => {
  using listener = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  let connections = 0;
  const accepting = (async () => {
    for await (const conn of listener) {
      connections++;
      conn.close();
    }
  })().catch(() => {});
  const db = dbFromEnv(
    new Env({ DB_URL: `ws://127.0.0.1:${listener.addr.port}`, DB_TIMEOUT_MS: "200" }),
    "x.db",
    [],
  );
  await new Promise((r) => setTimeout(r, 200));
  assert.equal(connections, 0, "nothing contacted at start-up");
  await assert.rejects(db.execute("SELECT 1"));
  assert.ok(connections > 0, "the first call connects");
  db.close();
  listener.close();
  await accepting;
});
