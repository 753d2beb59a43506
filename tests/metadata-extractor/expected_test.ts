/**
 * The exact-result check: `/metadata` on every page in tests/fixtures/pages/ must equal
 * expected/<page>.json (fixture origin and fetch time as placeholders). The expected files
 * are hand-reviewed: they are the specification of the extractor on real-looking pages.
 */
import assert from "node:assert/strict";
import { comparable, EXPECTED_DIR, fixtureNames, SERVE_OPTIONS, startHarness } from "./harness.ts";

Deno.test("every fixture page has an expected result, and every expected result a page", () => {
  const pages = fixtureNames();
  const expected = [...Deno.readDirSync(EXPECTED_DIR)].map((e) => e.name.replace(/\.json$/, ""));
  assert.deepEqual(expected.sort(), pages);
  // The three pages written for this experiment, and the dependency analyzer's.
  for (const name of ["blog.html", "broken-jsonld.html", "latin1.html"]) {
    assert.ok(pages.includes(name), name);
  }
});

for (const name of fixtureNames()) {
  Deno.test(`GET /metadata on ${name} equals expected/${name}.json`, async () => {
    const h = startHarness();
    try {
      const url = h.fixture.url(`/pages/${name}${SERVE_OPTIONS[name] ?? ""}`);
      const { status, body } = await h.metadata(url);
      assert.equal(status, 200);
      const expected = JSON.parse(
        await Deno.readTextFile(new URL(`${name}.json`, EXPECTED_DIR)),
      );
      assert.deepEqual(comparable(body, h.fixture.origin), expected);
      assert.equal(h.fixture.hits(`/pages/${name}`), 1, "one fetch per request");
    } finally {
      await h.close();
    }
  });
}

/** Every string in a result that names a place on the fixture server, or anywhere. */
function urlsIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === "string") {
    if (/^[a-z][a-z0-9+.-]*:\/\//i.test(value) || /^[./]/.test(value)) out.push(value);
  } else if (Array.isArray(value)) value.forEach((v) => urlsIn(v, out));
  else if (value && typeof value === "object") Object.values(value).forEach((v) => urlsIn(v, out));
  return out;
}

Deno.test("no relative URL survives in any result", async () => {
  const h = startHarness();
  try {
    for (const name of fixtureNames()) {
      const { body } = await h.metadata(
        h.fixture.url(`/pages/${name}${SERVE_OPTIONS[name] ?? ""}`),
      );
      for (const u of urlsIn(body)) {
        assert.doesNotThrow(() => new URL(u), `${name}: ${u}`);
        assert.match(u, /^https?:\/\//, `${name}: ${u}`);
      }
    }
  } finally {
    await h.close();
  }
});
