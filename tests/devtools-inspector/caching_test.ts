/** Cache-Control parsing and the verdict a browser's cache would reach (RFC 9111). */
import assert from "node:assert/strict";
import {
  describeCaching,
  humanDuration,
  parseCacheControl,
} from "../../functions/devtools-inspector/caching.ts";

const NOW = "Mon, 02 Jun 2025 12:00:00 GMT";

function verdict(headers: Record<string, string>, status = 200) {
  const { policy, freshFor, verdict } = describeCaching(new Headers(headers), status);
  return { policy, freshFor, verdict };
}

Deno.test("Cache-Control parses case-insensitively, keeps quoted lists whole, first value wins", () => {
  assert.deepEqual(
    parseCacheControl('Private="set-cookie, x-user", MAX-AGE=60, max-age=5, no-transform'),
    { private: "set-cookie, x-user", "max-age": "60", "no-transform": true },
  );
  assert.deepEqual(parseCacheControl(null), {});
  assert.deepEqual(parseCacheControl(" , ,"), {});
});

Deno.test("durations read in at most two units, without gaps", () => {
  assert.equal(humanDuration(0), "0s");
  assert.equal(humanDuration(45), "45s");
  assert.equal(humanDuration(3600), "1h");
  assert.equal(humanDuration(5400), "1h 30m");
  assert.equal(humanDuration(86_405), "1d"); // not "1d 5s"
  assert.equal(humanDuration(31_536_000), "1y");
});

Deno.test("what is never reused: no-store, Vary: *", () => {
  assert.deepEqual(verdict({ "cache-control": "no-store, max-age=600" }), {
    policy: "no-store",
    freshFor: null,
    verdict: "not stored (no-store)",
  });
  assert.deepEqual(verdict({ "cache-control": "max-age=600", vary: "Accept, *" }), {
    policy: "not-cacheable",
    freshFor: null,
    verdict: "not reusable (Vary: *)",
  });
});

Deno.test("what must be revalidated: no-cache, Pragma, max-age=0, stale on arrival, ETag only", () => {
  const revalidate = { policy: "revalidate", freshFor: null, verdict: "revalidate every time" };
  assert.deepEqual(verdict({ "cache-control": "no-cache, max-age=600" }), revalidate);
  assert.deepEqual(verdict({ pragma: "no-cache" }), revalidate);
  assert.deepEqual(verdict({ "cache-control": "max-age=0, must-revalidate" }), {
    ...revalidate,
    freshFor: 0,
  });
  assert.deepEqual(verdict({ "cache-control": "max-age=60", age: "90" }), {
    policy: "revalidate",
    freshFor: 0,
    verdict: "stale on arrival (Age 90s >= lifetime): revalidate",
  });
  assert.deepEqual(verdict({ etag: '"v1"' }), {
    policy: "revalidate",
    freshFor: null,
    verdict: "revalidate every time (no lifetime; ETag only)",
  });
});

Deno.test("explicit lifetimes: max-age (less Age), Expires - Date, and their notes", () => {
  assert.deepEqual(verdict({ "cache-control": "public, max-age=3600" }), {
    policy: "fresh",
    freshFor: 3600,
    verdict: "cacheable for 1h",
  });
  assert.deepEqual(
    verdict({
      "cache-control": "private, max-age=86400, immutable, stale-while-revalidate=30",
      age: "600",
    }),
    {
      policy: "fresh",
      freshFor: 85_800,
      verdict:
        "cacheable for 1d (browser only, immutable, then stale-while-revalidate 30s, 10m already spent in caches)",
    },
  );
  // Pragma does not override an explicit Cache-Control.
  assert.equal(verdict({ "cache-control": "max-age=60", pragma: "no-cache" }).policy, "fresh");
  assert.deepEqual(verdict({ date: NOW, expires: "Mon, 02 Jun 2025 14:00:00 GMT" }), {
    policy: "fresh",
    freshFor: 7200,
    verdict: "cacheable for 2h",
  });
  // An Expires that does not parse means already expired.
  assert.deepEqual(verdict({ date: NOW, expires: "0" }), {
    policy: "revalidate",
    freshFor: 0,
    verdict: "revalidate every time",
  });
});

Deno.test("no explicit lifetime: heuristic from Last-Modified on cacheable statuses only", () => {
  assert.deepEqual(
    verdict({ date: NOW, "last-modified": "Fri, 23 May 2025 12:00:00 GMT" }),
    {
      policy: "heuristic",
      freshFor: null,
      verdict: "heuristically cacheable for ~1d (no explicit lifetime)", // 10% of 10 days
    },
  );
  assert.deepEqual(verdict({ "last-modified": "Fri, 23 May 2025 12:00:00 GMT" }), {
    policy: "heuristic",
    freshFor: null,
    verdict: "heuristically cacheable (no explicit lifetime)",
  });
  assert.equal(verdict({ date: NOW, "last-modified": NOW }, 500).policy, "not-cacheable");
  assert.deepEqual(verdict({}), {
    policy: "not-cacheable",
    freshFor: null,
    verdict: "not cacheable (no lifetime, no validator)",
  });
});

Deno.test("the raw headers are reported beside the verdict", () => {
  const info = describeCaching(
    new Headers({
      "cache-control": "max-age=60",
      etag: 'W/"x"',
      "last-modified": NOW,
      age: "5",
      vary: "Accept-Encoding, Cookie",
      expires: NOW,
      pragma: "no-cache",
    }),
    200,
  );
  const { policy: _p, freshFor: _f, verdict: _v, ...raw } = info;
  assert.deepEqual(raw, {
    cacheControl: "max-age=60",
    directives: { "max-age": "60" },
    etag: 'W/"x"',
    lastModified: NOW,
    age: 5,
    vary: ["Accept-Encoding", "Cookie"],
    expires: NOW,
    pragma: "no-cache",
  });
});
