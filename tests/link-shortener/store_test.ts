/**
 * The link store over a remote libSQL (Hrana over HTTP on the real engine): the service
 * works through the web client, and a database that fails or hangs answers 500
 * DATABASE_ERROR within its deadline (cached links keep redirecting), then recovers.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/bindings/cache.ts";
import { Db } from "../../shared/bindings/db.ts";
import { createApp } from "../../functions/link-shortener/app.ts";
import { LINK_MIGRATIONS } from "../../functions/link-shortener/migrations.ts";
import { endedByDeadline } from "../support/deadline_race.ts";
import { startHranaServer } from "../support/hrana_server.ts";

const TIMEOUT_MS = 300;

Deno.test("remote libSQL: links over Hrana; a hanging or failing database is DATABASE_ERROR at its deadline", async () => {
  const dir = await Deno.makeTempDir({ prefix: "link_store_" });
  await using server = await startHranaServer({ path: `${dir}/remote.db` });
  const config = { url: server.url, timeoutMs: TIMEOUT_MS };
  const db = new Db(config, LINK_MIGRATIONS);
  const logs: string[] = [];
  const app = createApp({ DB: db, CACHE: new MemoryCache() }, { log: (l) => logs.push(l) });
  const post = (body: unknown) =>
    app.request("http://sho.rt/shorten", { method: "POST", body: JSON.stringify(body) });
  try {
    assert.equal((await post({ url: "https://example.com/a", code: "cached" })).status, 201);
    assert.equal((await post({ url: "https://example.com/b", code: "uncached" })).status, 201);
    assert.equal((await app.request("http://sho.rt/cached")).status, 302);

    for (const mode of ["hang", "error"] as const) {
      server.mode = mode;
      const res = await endedByDeadline(app.request("http://sho.rt/uncached"), TIMEOUT_MS);
      assert.equal(res.status, 500, mode);
      assert.deepEqual(await res.json(), { error: "Database error", code: "DATABASE_ERROR" });
      const write = await post({ url: "https://example.com/c" });
      assert.equal(write.status, 500);
      await write.body?.cancel();
      const hit = await app.request("http://sho.rt/cached");
      assert.equal(hit.status, 302, "a cached link still redirects");
    }
    assert.ok(logs.some((l) => l.includes('"db_error"') && l.includes("did not answer")));
    server.mode = "ok";
    const back = await app.request("http://sho.rt/uncached");
    assert.equal(back.status, 302);
    assert.equal(back.headers.get("location"), "https://example.com/b");
  } finally {
    db.close();
    await Deno.remove(dir, { recursive: true });
  }
});
