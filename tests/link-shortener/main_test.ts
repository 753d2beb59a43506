/**
 * main.ts as a process. Under the permissions of an edge isolate (no FFI, no writes, no
 * subprocess) with a remote libSQL: it starts, serves links end to end over Hrana, and a
 * database that is down (at start-up included) or a corrupt database file never stops it:
 * those requests answer 500 DATABASE_ERROR, without a stack trace, until it is back.
 */
import assert from "node:assert/strict";
import { EDGE_PERMISSIONS, startEntrypoint } from "../support/entrypoint.ts";
import { startHranaServer } from "../support/hrana_server.ts";

async function shorten(origin: string, body: unknown): Promise<Response> {
  return await fetch(`${origin}/shorten`, { method: "POST", body: JSON.stringify(body) });
}

async function assertDatabaseError(res: Response): Promise<void> {
  assert.equal(res.status, 500);
  assert.deepEqual(await res.json(), { error: "Database error", code: "DATABASE_ERROR" });
}

Deno.test("main.ts at the edge: an unreachable DB_URL starts; GET / is 200, POST /shorten 500 DATABASE_ERROR", async () => {
  const app = await startEntrypoint(
    "link-shortener",
    { DB_URL: "http://127.0.0.1:9" },
    EDGE_PERMISSIONS,
  );
  try {
    const root = await fetch(`${app.origin}/`);
    assert.equal(root.status, 200);
    assert.equal((await root.json()).name, "link-shortener");
    await assertDatabaseError(await shorten(app.origin, { url: "https://example.com/" }));
    const redirect = await fetch(`${app.origin}/abcdef`, { redirect: "manual" });
    await assertDatabaseError(redirect);
  } finally {
    await app.stop();
  }
  assert.doesNotMatch(app.stderr(), /\n\s+at /, "no stack trace in the log");
  assert.doesNotMatch(app.stderr(), /ffi|libsql\.node|NotCapable/i);
});

Deno.test("main.ts at the edge: remote libSQL over Hrana; down at start-up, served once it is up", async () => {
  const dir = await Deno.makeTempDir({ prefix: "link_main_" });
  // A port that is free now and where the database will come up later.
  const probe = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const port = (probe.addr as Deno.NetAddr).port;
  probe.close();
  const app = await startEntrypoint("link-shortener", {
    DB_URL: `http://127.0.0.1:${port}`,
    DB_TIMEOUT_MS: "2000",
  }, EDGE_PERMISSIONS);
  try {
    await assertDatabaseError(await shorten(app.origin, { url: "https://example.com/x" }));
    // The database comes up on that port: the next request migrates it and is served.
    const server = await startHranaServer({ path: `${dir}/remote.db`, port });
    try {
      const made = await shorten(app.origin, { url: "https://example.com/remote", code: "remote" });
      assert.equal(made.status, 201, await made.clone().text());
      const res = await fetch(`${app.origin}/remote`, { redirect: "manual" });
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "https://example.com/remote");
      await res.body?.cancel();
      // The service wrote through Hrana to the real engine's file.
      const info = await fetch(`${app.origin}/remote/info`);
      assert.equal((await info.json()).url, "https://example.com/remote");
    } finally {
      await server.close();
    }
  } finally {
    await app.stop();
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts: a corrupt database file serves GET / and answers DATABASE_ERROR, no stack trace", async () => {
  const dir = await Deno.makeTempDir({ prefix: "link_main_" });
  await Deno.writeTextFile(`${dir}/links.db`, "this is not a database ".repeat(400));
  const app = await startEntrypoint("link-shortener", { DATA_DIR: dir });
  try {
    assert.equal((await (await fetch(`${app.origin}/`)).json()).name, "link-shortener");
    await assertDatabaseError(await shorten(app.origin, { url: "https://example.com/" }));
    await assertDatabaseError(await fetch(`${app.origin}/abcdef/info`));
  } finally {
    // SIGTERM: the service writes out its log before it exits.
    await app.stop("SIGTERM");
    await Deno.remove(dir, { recursive: true });
  }
  const log = app.stderr();
  assert.doesNotMatch(log, /\n\s+at /, "no stack trace");
  const failures = log.split("\n").filter((l) => l.includes('"db_error"'));
  assert.ok(failures.length >= 1, log);
  assert.match(failures[0], /not a database|NOTADB/i);
});

Deno.test("main.ts: click counts survive a restart (flushed on SIGTERM); the rate limit sees the client address", async () => {
  const dir = await Deno.makeTempDir({ prefix: "link_main_" });
  // A flush interval far beyond the test: only the SIGTERM flush can write the counts.
  const env = { DATA_DIR: dir, CLICK_FLUSH_MS: "600000", SHORTEN_RATE_LIMIT: "2" };
  try {
    const first = await startEntrypoint("link-shortener", env);
    let code: string;
    try {
      const made = await shorten(first.origin, { url: "https://example.com/counted" });
      assert.equal(made.status, 201);
      code = (await made.json()).code;
      await Promise.all(Array.from({ length: 50 }, async () => {
        const res = await fetch(`${first.origin}/${code}`, {
          redirect: "manual",
          headers: { referer: "https://news.example.com/thread/1" },
        });
        await res.body?.cancel();
        assert.equal(res.status, 302);
      }));
      assert.equal((await shorten(first.origin, { url: "https://example.com/2" })).status, 201);
      const limited = await shorten(first.origin, { url: "https://example.com/3" });
      assert.equal(limited.status, 429);
      assert.equal((await limited.json()).code, "INVALID_INPUT");
    } finally {
      await first.stop("SIGTERM");
    }
    assert.equal((await first.child.status).code, 0, first.stderr());

    const second = await startEntrypoint("link-shortener", env);
    try {
      const stats = await (await fetch(`${second.origin}/${code}/stats`)).json();
      assert.equal(stats.totalClicks, 50);
      assert.deepEqual(stats.topReferrers, [{ host: "news.example.com", clicks: 50 }]);
    } finally {
      await second.stop("SIGTERM");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});

Deno.test("main.ts at the edge: Upstash unreachable from start-up; redirects come from libSQL, management refuses with STORAGE_ERROR", async () => {
  const dir = await Deno.makeTempDir({ prefix: "link_main_" });
  await using db = await startHranaServer({ path: `${dir}/remote.db` });
  const app = await startEntrypoint("link-shortener", {
    DB_URL: db.url,
    UPSTASH_REDIS_REST_URL: "http://127.0.0.1:1",
    UPSTASH_REDIS_REST_TOKEN: "t",
    CACHE_BREAKER_FAILURES: "2",
  }, EDGE_PERMISSIONS);
  try {
    const made = await shorten(app.origin, { url: "https://example.com/no-cache" });
    assert.equal(made.status, 201);
    const { code, manageToken } = await made.json();
    for (let i = 0; i < 4; i++) {
      const res = await fetch(`${app.origin}/${code}`, { redirect: "manual" });
      await res.body?.cancel();
      assert.equal(res.status, 302);
      assert.equal(res.headers.get("location"), "https://example.com/no-cache");
    }
    const patch = await fetch(`${app.origin}/${code}`, {
      method: "PATCH",
      headers: { authorization: `Bearer ${manageToken}` },
      body: JSON.stringify({ url: "https://example.com/changed" }),
    });
    assert.equal(patch.status, 500);
    assert.equal((await patch.json()).code, "STORAGE_ERROR");
    const still = await fetch(`${app.origin}/${code}`, { redirect: "manual" });
    await still.body?.cancel();
    assert.equal(still.headers.get("location"), "https://example.com/no-cache", "nothing changed");
  } finally {
    await app.stop("SIGTERM");
    await Deno.remove(dir, { recursive: true });
  }
  assert.match(app.stderr(), /"cache_circuit_open"/);
  assert.doesNotMatch(app.stderr(), /\n\s+at /);
});
