/**
 * The exact result of `/analyze` on every page in tests/fixtures/pages/, against the
 * hand-reviewed files in expected/ (`<fixture>.json`). The fixture server's random origin
 * reads `{origin}` and `fetchedAt` reads `{fetchedAt}` in those files.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/dependency-analyzer/app.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { openPolicy } from "../support/policy.ts";

const PAGES = new URL("../fixtures/pages/", import.meta.url);
const EXPECTED = new URL("./expected/", import.meta.url);

/** Query options a fixture is served with (the fixture server's `type=` and friends). */
const SERVE_OPTIONS: Record<string, string> = {
  "latin1.html": "?type=text/html;charset=iso-8859-1",
};

/** Every fixture page, sorted, so a new page without an expected file fails below. */
function fixtures(): string[] {
  return [...Deno.readDirSync(PAGES)]
    .filter((e) => e.isFile && /\.(?:html?|json)$/.test(e.name))
    .map((e) => e.name)
    .sort();
}

/** The response with the run's variable parts replaced by placeholders. */
function normalise(text: string, origin: string, started: number): unknown {
  const json = JSON.parse(text.replaceAll(origin, "{origin}"));
  const at = Date.parse(json.fetchedAt);
  assert.ok(at >= started - 1000 && at <= Date.now() + 1000, `fetchedAt ${json.fetchedAt}`);
  assert.equal(new Date(at).toISOString(), json.fetchedAt);
  return { ...json, fetchedAt: "{fetchedAt}" };
}

Deno.test("the fixture set is the one the expected files cover", () => {
  const expected = [...Deno.readDirSync(EXPECTED)].map((e) => e.name.replace(/\.json$/, ""));
  assert.deepEqual(expected.sort(), fixtures());
  assert.ok(fixtures().length >= 5);
});

for (const name of fixtures()) {
  Deno.test(`/analyze on ${name} is exactly expected/${name}.json`, async () => {
    const server = startFixtureServer();
    try {
      const app = createApp({ fetchPolicy: openPolicy() }, { log: () => {} });
      const target = server.url(`/pages/${name}${SERVE_OPTIONS[name] ?? ""}`);
      const started = Date.now();
      const res = await app.request(`/analyze?url=${encodeURIComponent(target)}`);
      const text = await res.text();
      assert.equal(res.status, 200, text);
      assert.equal(res.headers.get("content-type"), "application/json; charset=utf-8");
      const expected = JSON.parse(await Deno.readTextFile(new URL(`${name}.json`, EXPECTED)));
      assert.deepEqual(normalise(text, server.origin, started), expected);
    } finally {
      await server.close();
    }
  });
}
