/** Links outlive the process: a new app on the same libSQL file redirects every one of them. */
import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/bindings/cache.ts";
import { appliedVersions, migrate, openDb } from "../../shared/bindings/db.ts";
import { LINK_MIGRATIONS } from "../../functions/link-shortener/migrations.ts";
import { linkApp } from "./app_fixture.ts";

Deno.test("links created before a restart all redirect after it", async () => {
  const dir = await Deno.makeTempDir({ prefix: "link_shortener_" });
  try {
    const made: { code: string; url: string; info: unknown }[] = [];
    {
      await using fx = await linkApp({ dir });
      for (let i = 0; i < 30; i++) {
        const body: Record<string, unknown> = { url: `https://example.com/page/${i}` };
        if (i % 3 === 0) body.code = `custom-${i}`;
        if (i % 5 === 0) body.expiresAt = "2999-01-01T00:00:00Z";
        const res = await fx.shorten(body);
        assert.equal(res.status, 201);
        const { code, url, createdAt, expiresAt } = await res.json();
        made.push({ code, url, info: { code, url, createdAt, expiresAt } });
      }
      // Warm the first app's cache, so the second app cannot be reading from it.
      assert.equal((await fx.get(`/${made[0].code}`)).status, 302);
    }

    // A new process: new client, start-up migration (a no-op now), empty cache.
    const db = await openDb({ url: `file:${dir}/links.db` });
    try {
      assert.deepEqual(await migrate(db, LINK_MIGRATIONS), [], "schema already current");
      assert.deepEqual(await appliedVersions(db), [1, 2, 10]);
    } finally {
      db.close();
    }
    await using fx = await linkApp({ dir, CACHE: new MemoryCache() });
    for (const link of made) {
      const res = await fx.get(`/${link.code}`);
      assert.equal(res.status, 302, link.code);
      assert.equal(res.headers.get("location"), link.url);
      const info = await (await fx.get(`/${link.code}/info`)).json();
      const { code, url, createdAt, expiresAt } = info;
      assert.deepEqual({ code, url, createdAt, expiresAt }, link.info);
      assert.equal(info.totalClicks, 1, "the redirect just made (still in memory) counts");
    }
  } finally {
    await Deno.remove(dir, { recursive: true });
  }
});
