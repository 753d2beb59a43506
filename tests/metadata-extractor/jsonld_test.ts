/** JSON-LD blocks (jsonld.ts): a block nested too deep is skipped, the rest of the page read. */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { MAX_LD_DEPTH, parseJsonLd } from "../../functions/metadata-extractor/jsonld.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { openPolicy } from "../support/policy.ts";

Deno.test("the depth read counts arrays and objects, not brackets inside strings", async () => {
  const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
  const base = "https://example.com/";
  const deep = `JSON-LD block 1 nests deeper than ${MAX_LD_DEPTH} levels; skipped`;
  assert.deepEqual((await parseJsonLd([nested(MAX_LD_DEPTH)], base)).warnings, []);
  assert.deepEqual((await parseJsonLd([nested(MAX_LD_DEPTH + 1)], base)).warnings, [deep]);
  const inString = `{"a":"${"[".repeat(100)}\\"${"{".repeat(100)}"}`;
  assert.deepEqual((await parseJsonLd([inString], base)).warnings, []);
  const mixed = '{"a":[1,'.repeat(MAX_LD_DEPTH / 2) + "{}" + "]}".repeat(MAX_LD_DEPTH / 2);
  assert.deepEqual((await parseJsonLd([mixed], base)).warnings, [deep]);
});

Deno.test("/metadata: 2,000 nested arrays or 5,000 nested authors skip that block, not the page", async () => {
  let author = '{"@type":"Person","name":"x"}';
  for (let i = 0; i < 5000; i++) author = `{"@type":"Person","name":"p${i}","author":${author}}`;
  const deep = [
    "[".repeat(2000) + "]".repeat(2000),
    `{"@context":"https://schema.org","@type":"Article","headline":"Deep","author":${author}}`,
  ];
  const good = '{"@context":"https://schema.org","@type":"Article","headline":"Good headline",' +
    '"author":{"@type":"Person","name":"Ann"}}';
  const page = (block: string) =>
    `<html lang="en"><head><title>T</title><meta name="description" content="D">` +
    `<script type="application/ld+json">${block}</script>` +
    `<script type="application/ld+json">${good}</script></head><body></body></html>`;
  const html = { headers: { "content-type": "text/html" } };
  const fixtures = startFixtureServer({
    "/deep": (_req: Request, url: URL) =>
      new Response(page(deep[Number(url.searchParams.get("i"))]), html),
  });
  const app = createApp({ fetchPolicy: openPolicy() }, { log: () => {} });
  try {
    for (let i = 0; i < deep.length; i++) {
      const target = encodeURIComponent(fixtures.url(`/deep?i=${i}`));
      const res = await app.request(`/metadata?url=${target}`);
      const body = await res.json();
      assert.equal(res.status, 200, JSON.stringify(body).slice(0, 300));
      assert.equal(body.title, "Good headline");
      assert.equal(body.author, "Ann");
      assert.equal(body.description, "D");
      assert.equal(body.lang, "en");
      assert.deepEqual(body.warnings, [
        `JSON-LD block 1 nests deeper than ${MAX_LD_DEPTH} levels; skipped`,
      ]);
    }
  } finally {
    await fixtures.close();
  }
});
