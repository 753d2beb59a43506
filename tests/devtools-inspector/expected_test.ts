/**
 * The exact result of `/inspect` on every page in tests/fixtures/pages/, served with the
 * headers fixtures.ts chooses for it, against the hand-reviewed files in expected/. The run's
 * volatile parts read `{origin}`, `{port}`, `{fetchedAt}`, `{date}` and `{ms}` there.
 */
import assert from "node:assert/strict";
import { comparable, startHarness } from "./harness.ts";
import { EXPECTED_DIR, fixtureNames, fixtureUrl } from "./fixtures.ts";

Deno.test("the fixture set is the one the expected files cover", () => {
  const expected = [...Deno.readDirSync(EXPECTED_DIR)].map((e) => e.name.replace(/\.json$/, ""));
  assert.deepEqual(expected.sort(), fixtureNames());
  assert.ok(fixtureNames().length >= 6);
});

for (const name of fixtureNames()) {
  Deno.test(`/inspect on ${name} is exactly expected/${name}.json`, async () => {
    const h = startHarness();
    try {
      const { status, body } = await h.inspect(fixtureUrl(h.fixture, name));
      assert.equal(status, 200, JSON.stringify(body));
      const expected = JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, EXPECTED_DIR)));
      assert.deepEqual(comparable(body, h.fixture), expected);
      // The fixture URLs carry the Set-Cookie lines; nothing else may carry a cookie value.
      const { url: _u, finalUrl: _f, redirects: _r, ...rest } = body;
      assert.doesNotMatch(JSON.stringify(rest), /SECRET/, "a cookie value leaked");
    } finally {
      await h.close();
    }
  });
}
