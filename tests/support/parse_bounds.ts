/**
 * Hostile pages against a route that parses HTML (`/analyze`, `/inspect`, `/metadata`), over
 * real HTTP on 127.0.0.1: deeply nested markup is a prompt 502 PARSE_ERROR, and `GET /`
 * keeps answering fast while the route works on a large page.
 */
import assert from "node:assert/strict";
import type { FetchPolicy } from "../../shared/net/safe_fetch.ts";
import { startFixtureServer } from "./fixture_server.ts";
import { latenciesDuring, type LoopLatency } from "./loop_latency.ts";
import { openPolicy } from "./policy.ts";

/** What the tests need of an experiment's `createApp` over bindings `B`. */
type CreateAppOf<B> = (
  bindings: B,
  options: { log: () => void },
) => { fetch: (req: Request) => Response | Promise<Response> };

/** An experiment whose bindings are only the fetch policy (and optional ones). */
type CreateApp = CreateAppOf<{ fetchPolicy: FetchPolicy }>;

/** `levels` unclosed `<div>`s (unbounded, 200 KB of them blocked an instance for ~18 s). */
export function nestedPage(levels: number): string {
  return `<!doctype html><html><head><title>deep</title></head><body>${
    "<div>x".repeat(levels)
  }</body></html>`;
}

/** A large, ordinary page: `items` sections of text, links and images (~300 bytes each). */
export function largePage(items: number): string {
  const item = (i: number) =>
    `<section class="item"><h2><a href="/post/${i}">Post ${i}</a></h2><p>Some text about ` +
    `post ${i}, with <b>bold</b> and <i>italic</i> words.</p><img src="/img/${i}.jpg" ` +
    `alt="Picture ${i}" loading="lazy"><ul><li>one</li><li>two</li></ul></section>\n`;
  const body = Array.from({ length: items }, (_, i) => item(i)).join("");
  return `<!doctype html><html><head><title>big</title>` +
    `<script src="https://code.jquery.com/jquery-3.7.1.min.js"></script></head>` +
    `<body>${body}</body></html>`;
}

/**
 * Registers the parse-bound tests for `path` (e.g. "/analyze") of an experiment. With
 * `largePage: false` the latency test loads the route with nested pages only (for a route
 * whose work after the parse is not its own to make cooperative).
 */
export function parseBoundsTests(
  createApp: CreateApp,
  path: string,
  { largePage: withLargePage = true } = {},
): void {
  // Built once, as bytes: the fixture server shares the process with the app, and building
  // megabytes of markup per request would be the test's own load, not the route's.
  const html = { headers: { "content-type": "text/html; charset=utf-8" } };
  const encoder = new TextEncoder();
  const nested = new Map<number, Uint8Array<ArrayBuffer>>();
  const nestedBytes = (levels: number) => {
    if (!nested.has(levels)) nested.set(levels, encoder.encode(nestedPage(levels)));
    return nested.get(levels)!;
  };
  let large: Uint8Array<ArrayBuffer> | undefined;
  const routes = {
    "/nested": (_req: Request, url: URL) =>
      new Response(nestedBytes(Number(url.searchParams.get("levels"))), html),
    "/large": () => new Response(large ??= encoder.encode(largePage(5_000)), html),
  };

  /** Serves the app on 127.0.0.1 for `fn`, with the fixture routes above. */
  async function withApp(fn: (app: string, pages: (p: string) => string) => Promise<void>) {
    const fixtures = startFixtureServer(routes);
    const app = createApp({ fetchPolicy: openPolicy({ timeoutMs: 20_000 }) }, { log: () => {} });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
    try {
      await fn(`http://127.0.0.1:${server.addr.port}`, (p) => fixtures.url(p));
    } finally {
      await server.shutdown();
      await fixtures.close();
    }
  }

  /** The route's lazy modules (and rules) load on first use, outside the measurements. */
  async function warmUp(app: string, pages: (p: string) => string) {
    nestedBytes(40_000);
    nestedBytes(200_000);
    large ??= encoder.encode(largePage(5_000));
    const target = encodeURIComponent(pages("/nested?levels=3"));
    await (await fetch(`${app}${path}?url=${target}`)).body?.cancel();
  }

  Deno.test(`${path}: deeply nested HTML (200 KB, 1 MB) is a prompt 502 PARSE_ERROR`, async () => {
    await withApp(async (app, pages) => {
      await warmUp(app, pages);
      for (const levels of [40_000, 200_000]) {
        const started = performance.now();
        const target = pages(`/nested?levels=${levels}`);
        const res = await fetch(`${app}${path}?url=${encodeURIComponent(target)}`, {
          signal: AbortSignal.timeout(15_000),
        });
        const elapsed = performance.now() - started;
        assert.equal(res.status, 502);
        assert.deepEqual(await res.json(), {
          error: "Page nests elements deeper than 1024 levels",
          code: "PARSE_ERROR",
        });
        // Unbounded, 200 KB took ~18 s; bounded, the refusal comes after the first slice.
        assert.ok(elapsed < 5_000, `${levels} levels took ${elapsed.toFixed(0)} ms`);
      }
    });
  });

  const work = withLargePage ? "a large page and a nested one" : "nested pages";
  Deno.test(`GET / is answered between the parse slices while ${path} works on ${work}`, async () => {
    await withApp(async (app, pages) => {
      await warmUp(app, pages);
      const targets = [
        ...(withLargePage ? ["/large"] : []),
        ...Array(withLargePage ? 1 : 3).fill("/nested?levels=200000"),
      ];
      const seen = await latenciesDuring(app, () =>
        Promise.all(
          targets.map((t) => fetch(`${app}${path}?url=${encodeURIComponent(pages(t))}`)),
        ).then((responses) =>
          Promise.all(responses.map(async (r) => [r.status, await r.text()] as const))
        ));
      const answers = seen.result;
      targets.forEach((t, i) => {
        assert.equal(answers[i][0], t === "/large" ? 200 : 502, answers[i][1].slice(0, 300));
      });
      // A GET / that had to wait for the parse would take about as long as the whole work (the
      // unbounded parse blocked it for ~18 s); served between slices, it takes a small part of
      // it. A ratio of two times of the same run, so a loaded machine slows both: the median
      // poll under a quarter of the work's time. The worst poll is reported, not asserted.
      assertRootServed(seen, 4, 1);
    });
  });
}

/**
 * Asserts that `GET /` was served between the slices of a route's work: at least `minPolls`
 * polls, and their median under `1/fraction` of the work's own time of the same run (a GET /
 * that waited for the work would take about all of it).
 */
export function assertRootServed(
  { latencies, median, workMs, shown }: LoopLatency<unknown>,
  fraction: number,
  minPolls: number,
): void {
  assert.ok(latencies.length >= minPolls, `too few GET / during the work: ${shown}`);
  assert.ok(median < workMs / fraction, `GET / median ${median.toFixed(0)} ms; ${shown}`);
}

/**
 * Registers the budget test of a page route: with `budgetMs` configured (in `bindings`),
 * `page` (served from 127.0.0.1) ends with 502 PARSE_ERROR whose message matches `message`,
 * and `GET /` is answered meanwhile (median under a fifth of the request's own time).
 */
export function overBudgetTest<B extends { fetchPolicy: FetchPolicy }>(
  createApp: CreateAppOf<B>,
  path: string,
  { bindings, page, message, label = "a large page" }: {
    /** What the page is, for the test's name. */
    label?: string;
    /** The route's bindings besides the fetch policy, with its budget of `ms` among them. */
    bindings: (ms: number) => Omit<B, "fetchPolicy">;
    /** The hostile page: more work than the budget allows. */
    page: string;
    /** The 502's message, naming the configured bound of `ms`. */
    message: (ms: number) => RegExp;
  },
): void {
  Deno.test(`${path} past its budget on ${label}: 502 PARSE_ERROR naming it, GET / answered meanwhile`, async () => {
    const html = { headers: { "content-type": "text/html" } };
    const bytes = new TextEncoder().encode(page);
    const fixtures = startFixtureServer({
      "/big": () => new Response(bytes, html),
      "/small": () => new Response("<html><title>x</title></html>", html),
    });
    const policy = openPolicy({ timeoutMs: 30_000, maxBytes: 16 * 1024 * 1024 });
    // The whole page's time on this machine, with a budget it cannot reach, warm (the route's
    // modules and rules load on first use); the budget under test is a third of it, so that
    // the page overruns it on a fast machine as on a slow one.
    const whole = createApp({ ...bindings(600_000), fetchPolicy: policy } as B, { log: () => {} });
    const url = (p: string) => `${path}?url=${encodeURIComponent(fixtures.url(p))}`;
    const local = (p: string) => whole.fetch(new Request(`http://local${url(p)}`));
    await (await local("/small")).text();
    const started = performance.now();
    const full = await local("/big");
    await full.text();
    assert.equal(full.status, 200, "the whole page, without a budget");
    const budgetMs = Math.max(50, Math.round((performance.now() - started) / 3));
    const app = createApp({ ...bindings(budgetMs), fetchPolicy: policy } as B, {
      log: () => {},
    });
    const server = Deno.serve({ hostname: "127.0.0.1", port: 0, onListen: () => {} }, app.fetch);
    const base = `http://127.0.0.1:${server.addr.port}`;
    const ask = (p: string) => `${base}${url(p)}`;
    try {
      // Warm: the route's modules (and rules) load on first use, outside the budget.
      await (await fetch(ask("/small"))).text();
      const seen = await latenciesDuring(
        base,
        () => fetch(ask("/big")).then(async (res) => [res.status, await res.json()] as const),
      );
      const [status, body] = seen.result;
      assert.equal(status, 502, JSON.stringify(body).slice(0, 300));
      assert.equal(body.code, "PARSE_ERROR");
      assert.match(body.error, message(budgetMs));
      assertRootServed(seen, 5, 3);
    } finally {
      await server.shutdown();
      await fixtures.close();
    }
  });
}

/** A page of `count` copies of `element` in its head and body (~5 MB at 150,000). */
export function repeatedPage(element: string, count: number): string {
  return `<!doctype html><html><head><title>many</title>${element.repeat(count)}</head>` +
    `<body><p>Some text.</p></body></html>`;
}

/** Copies of each element in the repeated pages. */
export const REPEATS = 150_000;

/**
 * A page the route has little to do with, of `bytes` (about) and `REPEATS` elements: empty
 * `<br>`s padded to the size, the baseline a hostile page of the same size is compared with.
 */
export function benignPage(bytes: number): string {
  const shell = repeatedPage("", 0).length;
  const per = Math.max(4, Math.round((bytes - shell) / REPEATS));
  return repeatedPage(per >= 14 ? `<br title="${"x".repeat(per - 13)}">` : "<br>", REPEATS);
}

/**
 * Response headers a hostile page is sent with, as many as the fetch takes (node:http refuses
 * a head over 16 KiB): repeated Set-Cookie lines, a software header and a CSP of many
 * policies, for the routes that read headers and cookies.
 */
export function repeatedHeaders(): Headers {
  const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
  for (let i = 0; i < 250; i++) headers.append("set-cookie", `s${i % 10}=v`);
  for (let i = 0; i < 250; i++) headers.append("x-powered-by", "PHP/8.1");
  headers.set("content-security-policy", "default-src 'self' ,".repeat(100));
  return headers;
}

/** A hostile page of the repeated-elements test: a repeated element, or a whole page. */
export type RepeatedCase = string | { label: string; html: string };

/**
 * Registers a test that `path` answers 200 within its own time bound for pages of 150,000
 * copies of each of `elements` (or the whole pages given), sent with `repeatedHeaders()`: the
 * answer arrives within twice `budgetMs` (the route's configured bound, given in `bindings`)
 * plus the page's download, and within `maxRatio` times a benign page of the
 * same size measured just before and after it, so a loop that is merely slow (or quadratic under
 * the budget) fails too. 20,000 repeated meta tags took 5.5 s when each copied the list before it;
 * 150,000 gave no answer in 120 s. A route that stops itself at its bound may say so with
 * `overBound`: that 502 is accepted (and the ratio not asserted).
 */
export function repeatedElementsTests<B extends { fetchPolicy: FetchPolicy }>(
  createApp: CreateAppOf<B>,
  path: string,
  elements: RepeatedCase[],
  { bindings = {} as Omit<B, "fetchPolicy">, overBound, budgetMs, maxRatio }: {
    bindings?: Omit<B, "fetchPolicy">;
    /** The 502 message of a route that stops itself at its time bound (accepted too). */
    overBound?: RegExp;
    /**
     * The route's configured time budget: each answer must come within twice it (the budget
     * counts the route's own work; its pauses, while the loop serves others, come on top) plus
     * the page's download, timed in the same run; unasserted without it.
     */
    budgetMs?: number;
    /** Most times the benign page's time a hostile page may take; unasserted without it. */
    maxRatio?: number;
  } = {},
): void {
  Deno.test(`${path}: pages of 150,000 repeated elements are linear work, answered in bound`, async () => {
    const cases = elements.map((e) =>
      typeof e === "string" ? { label: `${e} ×150,000`, html: repeatedPage(e, REPEATS) } : e
    );
    const encoder = new TextEncoder();
    const pages = cases.map((c) => encoder.encode(c.html));
    const benign = pages.map((p) => encoder.encode(benignPage(p.length)));
    const plain = { headers: { "content-type": "text/html; charset=utf-8" } };
    const fixtures = startFixtureServer({
      // `plain`: the same body without the repeated headers (more than Deno's fetch takes),
      // for timing the download.
      "/page": (_req: Request, url: URL) =>
        new Response(pages[Number(url.searchParams.get("i"))], {
          headers: url.searchParams.has("plain") ? plain.headers : repeatedHeaders(),
        }),
      "/benign": (_req: Request, url: URL) =>
        new Response(benign[Number(url.searchParams.get("i"))], plain),
    });
    const policy = openPolicy({ timeoutMs: 60_000, maxBytes: 16 * 1024 * 1024 });
    const app = createApp({ ...bindings, fetchPolicy: policy } as B, { log: () => {} });
    const timed = async (page: string) => {
      const target = encodeURIComponent(fixtures.url(page));
      const started = performance.now();
      const res = await app.fetch(new Request(`http://app.test${path}?url=${target}`));
      const body = await res.text();
      return { status: res.status, body, ms: performance.now() - started };
    };
    try {
      if (maxRatio) await timed("/benign?i=0"); // the route's modules load on first use
      for (let i = 0; i < cases.length; i++) {
        const before = maxRatio ? await timed(`/benign?i=${i}`) : null;
        if (before) assert.equal(before.status, 200, `benign page: ${before.body.slice(0, 300)}`);
        const fetchedAt = performance.now();
        await (await fetch(fixtures.url(`/page?i=${i}&plain`))).arrayBuffer();
        const downloadMs = performance.now() - fetchedAt;
        let { status, body, ms } = await timed(`/page?i=${i}`);
        // The benign page before and after: the slower of the two, so that a moment of load
        // on the shared machine does not make the baseline look faster than it is.
        const after = before && await timed(`/benign?i=${i}`);
        const base = before && after && (after.ms > before.ms ? after : before);
        if (base && ms >= base.ms * maxRatio!) {
          // Over the ratio once: the faster of two tries (a moment of load, as for the benign
          // page; in one CI-like run in ~8 a case read past x15 where it reads x6-11).
          const again = await timed(`/page?i=${i}`);
          if (again.ms < ms) ({ status, body, ms } = again);
        }
        const shown = `${path} ${cases[i].label}: ${status} in ${ms.toFixed(0)} ms` +
          (base
            ? `, benign page of the same size ${base.ms.toFixed(0)} ms (×${
              (ms / base.ms).toFixed(1)
            })`
            : "");
        console.log(shown);
        const stopped = status === 502 && overBound?.test(JSON.parse(body).error);
        if (!stopped) assert.equal(status, 200, `${shown}: ${body.slice(0, 300)}`);
        if (budgetMs !== undefined) {
          assert.ok(
            ms < 2 * budgetMs + downloadMs,
            `${shown}: past the bound (budget ${budgetMs} ms, download ${
              downloadMs.toFixed(0)
            } ms)`,
          );
        }
        if (base && !stopped) assert.ok(ms < base.ms * maxRatio!, `${shown}: over ×${maxRatio}`);
      }
    } finally {
      await fixtures.close();
    }
  });
}
