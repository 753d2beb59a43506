/**
 * The three tiers of the redirect lookup (resolve.ts), on a fake clock: how long an instance's
 * own memory may serve a link changed elsewhere, alone and in front of a shared cache, and why
 * a lookup that read the old row cannot put it back into the shared cache.
 */
import assert from "node:assert/strict";
import { MemoryCache } from "../../shared/bindings/cache.ts";
import type { LinkRecord } from "../../functions/link-shortener/link.ts";
import { LOCAL_TTL_MS, LOCAL_TTL_WITH_SHARED_MS } from "../../functions/link-shortener/link.ts";
import { LinkResolver, TOMBSTONE } from "../../functions/link-shortener/resolve.ts";
import type { LinkStore } from "../../functions/link-shortener/store.ts";
import { RecordingCache } from "./app_fixture.ts";

/** The database both "instances" read: a map, with a count of reads and an optional gate. */
class Rows {
  readonly rows = new Map<string, string>();
  reads = 0;
  /** While set, reads wait for it (a slow database). */
  gate: Promise<void> | null = null;

  store(): LinkStore {
    return {
      findByCode: async (code: string): Promise<LinkRecord | null> => {
        this.reads++;
        const url = this.rows.get(code); // read now, answered after the gate: an old row
        if (this.gate) await this.gate;
        return url === undefined
          ? null
          : { code, url, createdAt: "2026-01-01T00:00:00.000Z", expiresAt: null };
      },
    } as unknown as LinkStore;
  }
}

const OPTIONS = { ttlMs: 3_600_000, log: () => {} };

Deno.test("alone: an instance's memory serves a link changed elsewhere for LOCAL_TTL_MS at most", async () => {
  let now = 0;
  const rows = new Rows();
  rows.rows.set("abc", "https://example.com/old");
  const a = new LinkResolver(rows.store(), new MemoryCache(100, () => now), {
    ...OPTIONS,
    now: () => now,
  });
  assert.equal(a.localTtlMs, LOCAL_TTL_MS);
  assert.equal(LOCAL_TTL_MS <= 4_000, true, "the README's 5 s bound, with a margin");
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/old" });
  rows.rows.set("abc", "https://example.com/new"); // another instance's PATCH
  now = LOCAL_TTL_MS - 1;
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/old" });
  assert.equal(rows.reads, 1);
  now = LOCAL_TTL_MS;
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/new" });
  rows.rows.delete("abc"); // another instance's DELETE
  now += LOCAL_TTL_MS;
  assert.equal(await a.resolve("abc"), null);
});

Deno.test("the in-process lifetime counts from the lookup's start, not its end", async () => {
  let now = 0;
  const rows = new Rows();
  rows.rows.set("abc", "https://example.com/");
  const a = new LinkResolver(rows.store(), new MemoryCache(100, () => now), {
    ...OPTIONS,
    now: () => now,
  });
  let open!: () => void;
  rows.gate = new Promise((r) => open = r);
  const lookup = a.resolve("abc");
  now = 3_000; // the database took 3 s
  open();
  await lookup;
  now = LOCAL_TTL_MS - 1;
  await a.resolve("abc");
  assert.equal(rows.reads, 1, "still in memory");
  now = LOCAL_TTL_MS;
  await a.resolve("abc");
  assert.equal(rows.reads, 2, "gone LOCAL_TTL_MS after the first lookup started");
});

Deno.test("with a shared cache: a change through B reaches A within LOCAL_TTL_WITH_SHARED_MS", async () => {
  let now = 0;
  const rows = new Rows();
  rows.rows.set("abc", "https://example.com/old");
  const shared = new RecordingCache();
  const options = { ...OPTIONS, now: () => now };
  const a = new LinkResolver(rows.store(), shared, options);
  const b = new LinkResolver(rows.store(), shared, options);
  assert.equal(a.localTtlMs, LOCAL_TTL_WITH_SHARED_MS);
  assert.ok(LOCAL_TTL_WITH_SHARED_MS < 1_000, "the README's 1 s bound");
  await a.resolve("abc");
  assert.equal(await shared.inner.get("link:abc"), "https://example.com/old", "filled");
  // B changes the link: marker first, then the row (app.ts's order).
  await b.invalidate("abc");
  rows.rows.set("abc", "https://example.com/new");
  await b.invalidate("abc");
  assert.equal(await shared.inner.get("link:abc"), TOMBSTONE);
  assert.deepEqual(await b.resolve("abc"), { url: "https://example.com/new" });
  now = LOCAL_TTL_WITH_SHARED_MS - 1;
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/old" });
  now = LOCAL_TTL_WITH_SHARED_MS;
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/new" });
  assert.equal(await shared.inner.get("link:abc"), TOMBSTONE, "the marker is not overwritten");
});

Deno.test("with a shared cache: a lookup that read the old row cannot put it back after a change", async () => {
  let now = 0;
  const rows = new Rows();
  rows.rows.set("abc", "https://example.com/old");
  const shared = new RecordingCache();
  const options = { ...OPTIONS, now: () => now };
  const a = new LinkResolver(rows.store(), shared, options);
  const b = new LinkResolver(rows.store(), shared, options);
  let open!: () => void;
  rows.gate = new Promise((r) => open = r);
  const slow = a.resolve("abc"); // reads the old row, answers late
  await new Promise((r) => setTimeout(r, 0));
  rows.gate = null;
  await b.invalidate("abc");
  rows.rows.set("abc", "https://example.com/new");
  await b.invalidate("abc");
  open();
  assert.deepEqual(await slow, { url: "https://example.com/old" }, "it answered what it read");
  const fill = shared.calls.find((c) => c.op === "add");
  assert.equal(fill?.value, "https://example.com/old", "it tried to fill");
  assert.equal(await shared.inner.get("link:abc"), TOMBSTONE, "and could not");
  // A third instance, and A once its short memory is gone, read the new target.
  const c = new LinkResolver(rows.store(), shared, options);
  assert.deepEqual(await c.resolve("abc"), { url: "https://example.com/new" });
  now = LOCAL_TTL_WITH_SHARED_MS;
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/new" });
});

Deno.test("concurrent misses of one code share one read; an invalidation starts a fresh one", async () => {
  const rows = new Rows();
  rows.rows.set("abc", "https://example.com/old");
  const a = new LinkResolver(rows.store(), new MemoryCache(), OPTIONS);
  let open!: () => void;
  rows.gate = new Promise((r) => open = r);
  const first = Array.from({ length: 10 }, () => a.resolve("abc"));
  await new Promise((r) => setTimeout(r, 0));
  assert.equal(rows.reads, 1);
  // A change in this process: lookups that start after it do not join the old read.
  rows.gate = null;
  rows.rows.set("abc", "https://example.com/new");
  await a.invalidate("abc");
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/new" });
  assert.equal(rows.reads, 2);
  open();
  for (const r of await Promise.all(first)) assert.equal(r?.url, "https://example.com/old");
  assert.deepEqual(await a.resolve("abc"), { url: "https://example.com/new" }, "not refilled");
});

Deno.test("a change whose marker cannot be written rejects (the caller changes nothing)", async () => {
  const shared = new RecordingCache();
  const a = new LinkResolver(new Rows().store(), shared, OPTIONS);
  shared.failWith = new Error("down");
  await assert.rejects(a.invalidate("abc"), /down/);
});
