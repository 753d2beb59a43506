/**
 * `/summary` and `/read` on hostile pages, over real HTTP on 127.0.0.1: pages of 150,000
 * repeated elements are answered within the reader's budget (200, or the 502 naming it), and
 * while the reader works on one, the instance goes on serving: `GET /` is answered between its
 * slices, and no single stretch holds the event loop for long.
 */
import assert from "node:assert/strict";
import { createApp } from "../../functions/ai-summary/app.ts";
import { extractiveAi } from "../../shared/bindings/ai/mod.ts";
import { startFixtureServer } from "../support/fixture_server.ts";
import { latenciesDuring, loopProbe } from "../support/loop_latency.ts";
import { repeatedElementsTests, repeatedPage } from "../support/parse_bounds.ts";
import { openPolicy } from "../support/policy.ts";

/** The reader's configured budget (tree.ts DEFAULT_TREE_LIMITS.maxMs), injected explicitly. */
const BUDGET_MS = 3000;
const OVER_BOUND = new RegExp(`^Page too complex to read: took over ${BUDGET_MS} ms$`);
const ELEMENTS = [
  '<meta name="author" content="a">',
  "<p>a</p>",
  '<div class="x"></div>',
  '<img src="/a.png">',
  // What follows a stray </html> is moved into the body (tree.ts shapeBody): in one pass.
  {
    label: "<p>a</p> ×150,000 after </html>",
    html: "<!doctype html><html><head><title>t</title></head><body><p>Some text.</p></body>" +
      `</html>${"<p>a</p>".repeat(150_000)}`,
  },
];
const bindings = { AI: extractiveAi(), readBudgetMs: BUDGET_MS };

repeatedElementsTests(createApp, "/summary", ELEMENTS, {
  bindings,
  overBound: OVER_BOUND,
  budgetMs: BUDGET_MS,
});
repeatedElementsTests(createApp, "/read", ELEMENTS, {
  bindings,
  overBound: OVER_BOUND,
  budgetMs: BUDGET_MS,
});

/** The reader's cooperative slice (tree.ts readerYield): the loop is let go once it has passed. */
const SLICE_MS = 25;
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)];
const ms = (x: number) => x.toFixed(0);

for (const path of ["/summary", "/read"]) {
  Deno.test(`GET / is served between the slices of ${path} on 150,000 <img> (2.8 MB)`, async () => {
    const page = new TextEncoder().encode(repeatedPage('<img src="/a.png">', 150_000));
    const html = { headers: { "content-type": "text/html; charset=utf-8" } };
    const fixtures = startFixtureServer({
      "/hostile": () => new Response(page, html),
      "/small": () => new Response("<title>t</title><p>Some words here.</p>", html),
    });
    const policy = openPolicy({ timeoutMs: 60_000, maxBytes: 16 * 1024 * 1024 });
    const app = createApp({ ...bindings, fetchPolicy: policy }, { log: () => {} });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const getRoot = async () => {
      const asked = performance.now();
      await (await fetch(`${base}/`, { signal: AbortSignal.timeout(30_000) })).body?.cancel();
      return performance.now() - asked;
    };
    try {
      // The reader's modules load on first use, outside the measurements.
      await (await fetch(`${base}${path}?url=${encodeURIComponent(fixtures.url("/small"))}`))
        .text();
      const idle: number[] = [];
      for (let i = 0; i < 10; i++) idle.push(await getRoot());

      const stop = loopProbe();
      const { result: [status, body], latencies, median: during, workMs: took } =
        await latenciesDuring(base, async () => {
          const target = encodeURIComponent(fixtures.url("/hostile"));
          const res = await fetch(`${base}${path}?url=${target}`);
          return [res.status, await res.json()] as const;
        });
      const gaps = stop();

      if (status !== 200) {
        assert.equal(status, 502, JSON.stringify(body));
        assert.match(body.error, OVER_BOUND);
      }
      const shown = `${path} ${status} in ${ms(took)} ms; GET / median ${ms(during)} ms ` +
        `(idle ${ms(median(idle))} ms), worst ${ms(Math.max(...latencies))} ms, ` +
        `${latencies.length} samples; longest loop stretches ${gaps.slice(0, 5).map(ms)} ms`;
      console.log(shown);
      assert.ok(latencies.length >= 3, shown);
      // Ratios of times of this run (a loaded machine slows all of them). Before the reader
      // yielded, the copy of the page and each attempt over it held the loop in one stretch of
      // about half the request (2.5 s of ~5, measured with this test: longest stretch 2.9 s of
      // 7.3 s), and the median stayed low only because most samples fell in the parse's slices.
      // A floor of a few of the yield's 25 ms slices: /summary reads this page in well under a
      // second since it left parse5, where a tenth of the request is no more than two slices;
      // a reader that did not yield would still fail it (GET / waiting half the request).
      assert.ok(
        during < Math.max(took / 10, 4 * SLICE_MS),
        `median GET / is a small part of the request: ${shown}`,
      );
      // The worst GET / is reported, not asserted: it adds the machine's own hiccups.
      assert.ok(
        gaps[0] < Math.max(took / 5, 10 * SLICE_MS),
        `no stretch holds the loop for long: ${shown}`,
      );
    } finally {
      await server.shutdown();
      await fixtures.close();
    }
  });
}
