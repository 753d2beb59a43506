/**
 * `/metadata` parses within the shared limits like `/analyze` and `/inspect`: a deeply nested
 * page was read by an unbounded parse (a 440 KB page blocked the instance ~0.7 s and then
 * answered "Maximum call stack size exceeded"; 5 MB, the default cap, ~20 s).
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/metadata-extractor/app.ts";
import { extractMetadata } from "../../functions/metadata-extractor/extract.ts";
import { MAX_LD_CHARS, parseJsonLd } from "../../functions/metadata-extractor/jsonld.ts";
import { collectSignals, MAX_TAGS } from "../../functions/metadata-extractor/signals.ts";
import { AUTHOR_RULES, fromRules } from "../../functions/metadata-extractor/body_sources.ts";
import type { YieldSoon } from "../../shared/contract/cooperative.ts";
import { parseHtml } from "../../shared/net/html.ts";
import {
  parseBoundsTests,
  repeatedElementsTests,
  repeatedPage,
  REPEATS,
} from "../support/parse_bounds.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { latenciesDuring, loopProbe } from "../support/loop_latency.ts";
import { openPolicy } from "../support/policy.ts";

parseBoundsTests(createApp, "/metadata");

/** The budget the repeated pages run under (the default of ANALYSIS_BUDGET_MS). */
const BUDGET_MS = 10_000;

// Meta tags, icons, alternates and JSON-LD blocks, and one JSON-LD graph of 150,000 nodes.
repeatedElementsTests(createApp, "/metadata", [
  '<meta name="author" content="a">',
  '<meta property="og:image" content="/a.png">',
  '<link rel="icon" href="/a.png">',
  '<link rel="alternate" hreflang="de" href="/de">',
  '<script type="application/ld+json"></script>',
  {
    label: "a JSON-LD @graph of 150,000 nodes",
    html: `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[${
      Array(REPEATS).fill('{"@type":"Person","name":"a"}').join(",")
    }]}</script>`,
  },
], { bindings: { analysisBudgetMs: BUDGET_MS }, budgetMs: BUDGET_MS, maxRatio: 10 });

/**
 * What `/metadata` does after the parse (the walk for signals, JSON-LD, the body fallbacks,
 * icons and the other link lists) holds the loop at most a slice at a time: `GET /` is answered
 * between its steps. Before, one walk, one JSON-LD pass or one body rule ran to its end: on
 * 150,000 icons a `GET /` waited half of the request's whole time (3.9 s of 7.6 s on a loaded
 * machine), on a JSON-LD graph nearly all of it (79-86 %). A ratio of two times of the same
 * run: the longest stretch the loop is held at once under a third of the request's own time
 * (after: at most a fifth, 90 ms of 440, a parse slice with a young-generation collection).
 * The worst `GET /` is reported, not asserted: it adds the HTTP client's and server's turns of
 * the same loop and the machine's hiccups (once 219 ms of 347, while no stretch passed 90).
 */
Deno.test("/metadata: GET / is answered between the steps of hostile pages (the longest loop stretch, not the median)", async () => {
  const graph = `<script type="application/ld+json">{"@context":"https://schema.org","@graph":[${
    Array(24_000).fill('{"@type":"Person","name":"a","url":"/p"}').join(",")
  }]}</script>`;
  const pages: Record<string, string> = {
    icons: repeatedPage('<link rel="icon" href="/a.png">', REPEATS),
    alternates: repeatedPage('<link rel="alternate" hreflang="de" href="/de">', REPEATS),
    "og:image": repeatedPage('<meta property="og:image" content="/a.png">', REPEATS),
    // A graph just under the JSON-LD read per page, among elements every body rule scans.
    graph: repeatedPage('<p class="byline">x</p>', 100_000).replace("</head>", `${graph}</head>`),
  };
  const encoder = new TextEncoder();
  const bytes = Object.fromEntries(Object.entries(pages).map(([k, v]) => [k, encoder.encode(v)]));
  const fixtures = startFixtureServer(
    Object.fromEntries(
      Object.keys(pages).map((k) => [
        `/${k}`,
        () => new Response(bytes[k], { headers: { "content-type": "text/html" } }),
      ]),
    ),
  );
  const policy = openPolicy({ timeoutMs: 60_000, maxBytes: 16 * 1024 * 1024 });
  const app = createApp({ fetchPolicy: policy, analysisBudgetMs: 120_000 }, { log: () => {} });
  const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
  const base = `http://127.0.0.1:${server.addr.port}`;
  const ask = (k: string) => `${base}/metadata?url=${encodeURIComponent(fixtures.url(`/${k}`))}`;
  try {
    await (await fetch(ask("graph"))).text(); // the extractor loads on first use
    for (const k of Object.keys(pages)) {
      const stop = loopProbe();
      const seen = await latenciesDuring(
        base,
        () => fetch(ask(k)).then(async (res) => [res.status, await res.json()] as const),
        5,
      );
      const longest = stop()[0];
      const [status, body] = seen.result;
      assert.equal(status, 200, JSON.stringify(body).slice(0, 300));
      assert.ok(seen.latencies.length >= 3, `${k}: too few GET / during the work: ${seen.shown}`);
      assert.ok(
        longest < seen.workMs / 3,
        `${k}: the loop was held ${longest.toFixed(0)} ms at once; ${seen.shown}`,
      );
    }
  } finally {
    await server.shutdown();
    await fixtures.close();
  }
});

Deno.test("/metadata: past the tags read per page, the rest is skipped with a warning", async () => {
  const html = repeatedPage('<link rel="icon" href="/a.png">', MAX_TAGS + 5);
  const m = await extractMetadata(html, "https://example.com/");
  assert.equal(m.icons.length, MAX_TAGS);
  assert.ok(
    m.warnings.includes(`5 <link> tags past the first ${MAX_TAGS} skipped`),
    m.warnings.join("\n"),
  );
  const big = `<script type="application/ld+json">{"name":"${"x".repeat(MAX_LD_CHARS)}"}</script>` +
    `<script type="application/ld+json">{"name":"small"}</script>`;
  const ld = await extractMetadata(`<html><head>${big}</head></html>`, "https://example.com/");
  assert.deepEqual(ld.jsonLd, [{ name: "small" }]);
  assert.match(
    ld.warnings[0],
    /^JSON-LD block 1 is past the 1000000 characters read per page; skipped$/,
  );
});

/**
 * A yield that is always due and counts its pauses (an injected clock: no wall time): each
 * long step of the extractor must pause in proportion to its work, not run to its end.
 */
function countingYield(): YieldSoon & { pauses: number } {
  const y = Object.assign(async () => {
    y.pauses++;
    await Promise.resolve();
  }, { due: () => true, pauses: 0 });
  return y;
}

Deno.test("/metadata's long steps pause on the request's yield in proportion to their work", async () => {
  const doc = parseHtml(repeatedPage('<p class="x">a</p>', 20_000));
  const signals = countingYield();
  await collectSignals(doc, "https://example.com/", signals);
  assert.ok(signals.pauses >= Math.floor(20_000 / 256), `signals walk: ${signals.pauses} pauses`);
  const rules = countingYield();
  assert.equal(await fromRules(doc, AUTHOR_RULES, () => true, rules), null);
  assert.ok(rules.pauses >= AUTHOR_RULES.length, `body rules: ${rules.pauses} pauses`);
  const graph = `{"@graph":[${Array(20_000).fill('{"@type":"Person","url":"/p"}').join(",")}]}`;
  const ld = countingYield();
  const parsed = await parseJsonLd([graph], "https://example.com/", ld);
  assert.equal(parsed.nodes.length, 20_000);
  assert.equal((parsed.nodes[0] as { url: string }).url, "https://example.com/p");
  assert.ok(ld.pauses >= Math.floor(20_000 / 1_024), `JSON-LD pass: ${ld.pauses} pauses`);
});
