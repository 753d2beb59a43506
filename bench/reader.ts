/**
 * The reader text `/summary` sends its model, against Mozilla Readability (Firefox Reader View,
 * run on jsdom: benchmark only) on the same bytes: per-page token F1 over the real pages of
 * `htmlparser-benchmark` (258 pages of real sites, nobody on the team wrote them), mean and
 * median, and the ten worst pages. Pages where Readability finds no article (it returns null
 * or under MIN_REFERENCE_TOKENS tokens) have no reference and are counted apart. Also times
 * the reader against Readability + jsdom on the same pages (one pass each, interleaved).
 *
 * Extraction quality against a hand-labelled set (tests/fixtures/reader_labels/: 59 news and
 * blog pages of this corpus, each with its article body marked by hand; 12 of them held out from
 * rule writing): 4-gram shingle precision, recall and F1 averaged per page (extraction_score.ts),
 * the reader and Readability side by side, all pages and the held-out ones, with the reader's
 * time per page.
 *
 * Run alone: `deno run -A bench/reader.ts` (prints the worst pages with both texts' sizes);
 * `deno run -A bench/reader.ts labels` prints the labelled set's per-page scores.
 */
import { Readability } from "@mozilla/readability";
import { JSDOM, VirtualConsole } from "jsdom";
import { fileURLToPath } from "node:url";
import { type BenchRow, errorRow, formatTable, percentile, QUICK } from "./harness.ts";
import { blockText, readPage } from "../functions/ai-summary/readable.ts";
import { bodyOf, parseTree } from "../functions/ai-summary/tree.ts";
import { parseBrowserTree } from "../functions/ai-summary/browser_tree.ts";
import { type ExtractionScore, meanScore, shingleScore } from "./extraction_score.ts";

/** Readability output under this many tokens is not an article: no reference for the page. */
export const MIN_REFERENCE_TOKENS = 50;
/** Targets: agreement of the reader's text with Mozilla Readability's (token F1). */
const TARGET_MEAN_F1 = 0.92;
/** Extraction targets on the labelled set (shingle F1, precision, recall, averaged per page). */
const TARGET = { f1: 0.97, precision: 0.95, recall: 0.98 };

/** One real page of the corpus. */
export interface CorpusPage {
  name: string;
  html: string;
}

/** The htmlparser-benchmark pages (258 real pages), sorted by name. */
export function corpus(): CorpusPage[] {
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name).sort();
  const picked = QUICK ? names.filter((_, i) => i % 4 === 0) : names;
  return picked.map((name) => ({ name, html: Deno.readTextFileSync(`${dir}/${name}`) }));
}

/** Lowercased word tokens (letters and digits, any script). */
export function tokens(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** Token F1 of `candidate` against `reference` (multisets: each token counts as often as it occurs). */
export function tokenF1(candidate: string[], reference: string[]): number {
  if (candidate.length === 0 && reference.length === 0) return 1;
  const { precision, recall } = pr(candidate, reference);
  return precision + recall === 0 ? 0 : (2 * precision * recall) / (precision + recall);
}

/** Readability's article text for a page; null when it finds no article. */
export function readabilityText(html: string): string | null {
  // jsdom builds the tree a browser builds (parse5); its CSS warnings are not wanted here.
  const dom = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  try {
    return new Readability(dom.window.document).parse()?.textContent ?? null;
  } finally {
    dom.window.close();
  }
}

/** A page of the labelled set: its HTML and the article body marked by hand. */
export interface LabelledPage {
  name: string;
  site: string;
  html: string;
  expected: string;
  /** Labelled after the precision rules were written, to check they carry to unseen sites. */
  heldOut: boolean;
}

/** The hand-labelled pages (tests/fixtures/reader_labels/index.json), HTML from the corpus. */
export function labelledPages(): LabelledPage[] {
  const labels = new URL("../tests/fixtures/reader_labels/", import.meta.url);
  const index: { page: string; site: string; label: string; heldOut?: boolean }[] = JSON.parse(
    Deno.readTextFileSync(new URL("index.json", labels)),
  );
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  return index.map((e) => ({
    name: e.page,
    site: e.site,
    html: Deno.readTextFileSync(`${dir}/${e.page}`),
    expected: Deno.readTextFileSync(new URL(e.label, labels)),
    heldOut: e.heldOut === true,
  }));
}

/** Readability's article as text, one block a line (its HTML through the reader's block walk). */
export async function readabilityBlocks(html: string): Promise<string> {
  const dom = new JSDOM(html, { virtualConsole: new VirtualConsole() });
  let content: string | null | undefined;
  try {
    content = new Readability(dom.window.document).parse()?.content;
  } finally {
    dom.window.close();
  }
  if (!content) return "";
  const body = bodyOf(await parseBrowserTree(content));
  return body ? blockText(body) : "";
}

/** One labelled page's scores, both extractors. */
export interface LabelledScore {
  name: string;
  site: string;
  heldOut: boolean;
  ours: ExtractionScore;
  readability: ExtractionScore;
}

/**
 * Scores the reader and Readability on the labelled set; the reader's time is the median of
 * `rounds` passes over all pages, per page.
 */
export async function labelledScores(
  pages: LabelledPage[],
  rounds = QUICK ? 1 : 5,
): Promise<{ scores: LabelledScore[]; oursMsPerPage: number; readabilityMsPerPage: number }> {
  const scores: LabelledScore[] = [];
  for (const page of pages) {
    const ours = (await readPage(page.html)).text;
    const theirs = await readabilityBlocks(page.html);
    scores.push({
      name: page.name,
      site: page.site,
      heldOut: page.heldOut,
      ours: shingleScore(ours, page.expected),
      readability: shingleScore(theirs, page.expected),
    });
  }
  const mine: number[] = [];
  const theirs: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    for (const page of pages) await readPage(page.html);
    mine.push((performance.now() - t) / pages.length);
    t = performance.now();
    for (const page of pages) readabilityText(page.html);
    theirs.push((performance.now() - t) / pages.length);
  }
  return {
    scores,
    oursMsPerPage: percentile(mine, 50),
    readabilityMsPerPage: percentile(theirs, 50),
  };
}

/** The labelled set's rows: F1, precision, recall (reader vs Readability) and time per page. */
export async function labelledRows(): Promise<BenchRow[]> {
  const pages = labelledPages();
  const { scores, oursMsPerPage, readabilityMsPerPage } = await labelledScores(pages);
  const ours = meanScore(scores.map((s) => s.ours));
  const theirs = meanScore(scores.map((s) => s.readability));
  const note = `${pages.length} hand-labelled pages (tests/fixtures/reader_labels), ` +
    "4-gram shingle scores averaged per page; baseline: Readability 0.6";
  const row = (key: keyof ExtractionScore): BenchRow => ({
    measure: `reader extraction ${key === "f1" ? "F1" : key} on labelled pages (vs Readability)`,
    unit: "%",
    project: round(ours[key] * 100),
    baseline: round(theirs[key] * 100),
    ratio: ours[key] / theirs[key],
    target: `>= ${TARGET[key] * 100}%`,
    pass: ours[key] >= TARGET[key],
    note,
  });
  const rows = [row("f1"), row("precision"), row("recall")];
  const halves = [
    ["tuning", false, "the pages the precision rules were written on"],
    [
      "held-out",
      true,
      "pages labelled after the precision rules were written, from sites not among the others",
    ],
  ] as const;
  for (const [half, heldOut, note] of halves) {
    const set = scores.filter((s) => s.heldOut === heldOut);
    const mine = meanScore(set.map((s) => s.ours));
    const base = meanScore(set.map((s) => s.readability));
    for (const key of ["f1", "precision", "recall"] as const) {
      rows.push({
        measure: `reader extraction ${key === "f1" ? "F1" : key} on the ${set.length} ${half} ` +
          "labelled pages (vs Readability)",
        unit: "%",
        project: round(mine[key] * 100),
        baseline: round(base[key] * 100),
        ratio: mine[key] / base[key],
        target: "reported",
        pass: true,
        note,
      });
    }
  }
  rows.push({
    measure: "reader time per labelled page (vs Readability on jsdom)",
    unit: "ms",
    project: round(oursMsPerPage),
    baseline: round(readabilityMsPerPage),
    ratio: oursMsPerPage / readabilityMsPerPage,
    target: "reported",
    pass: true,
    note: "median of interleaved rounds, parse included; noisy on a loaded machine",
  });
  return rows;
}

/** The score of one page. */
export interface PageScore {
  name: string;
  f1: number;
  precision: number;
  recall: number;
  oursTokens: number;
  theirsTokens: number;
}

/** Precision and recall of `candidate` against `reference` (as multisets; 0 when empty). */
function pr(candidate: string[], reference: string[]): { precision: number; recall: number } {
  const counts = new Map<string, number>();
  for (const t of reference) counts.set(t, (counts.get(t) ?? 0) + 1);
  let overlap = 0;
  for (const t of candidate) {
    const n = counts.get(t) ?? 0;
    if (n > 0) {
      overlap++;
      counts.set(t, n - 1);
    }
  }
  return {
    precision: candidate.length ? overlap / candidate.length : 0,
    recall: reference.length ? overlap / reference.length : 0,
  };
}

/** Scores every page; pages without a reference are listed apart. */
export async function score(
  pages: CorpusPage[],
): Promise<{ scores: PageScore[]; noReference: string[]; oursMs: number; theirsMs: number }> {
  const scores: PageScore[] = [];
  const noReference: string[] = [];
  let oursMs = 0;
  let theirsMs = 0;
  for (const page of pages) {
    let t = performance.now();
    let reference: string | null = null;
    try {
      reference = readabilityText(page.html);
    } catch {
      reference = null;
    }
    theirsMs += performance.now() - t;
    t = performance.now();
    const ours = (await readPage(page.html)).text;
    oursMs += performance.now() - t;
    const ref = tokens(reference ?? "");
    if (ref.length < MIN_REFERENCE_TOKENS) {
      noReference.push(page.name);
      continue;
    }
    const cand = tokens(ours);
    scores.push({
      name: page.name,
      f1: tokenF1(cand, ref),
      ...pr(cand, ref),
      oursTokens: cand.length,
      theirsTokens: ref.length,
    });
  }
  return { scores, noReference, oursMs, theirsMs };
}

/**
 * The cost of the browser-grade tree: `/read`'s parse5 tree (through the htmlparser2 tree
 * adapter, in slices, bounded) against `/summary`'s (the shared lean parser, bounded, its body
 * shaped), on every page. Rounds interleave the two; the median round is reported.
 */
async function parseCost(pages: CorpusPage[]): Promise<{ parse5: number; lean: number }> {
  const rounds = QUICK ? 1 : 3;
  const a: number[] = [];
  const b: number[] = [];
  for (let r = 0; r < rounds; r++) {
    let t = performance.now();
    for (const p of pages) await parseBrowserTree(p.html);
    a.push(performance.now() - t);
    t = performance.now();
    for (const p of pages) await parseTree(p.html);
    b.push(performance.now() - t);
  }
  return { parse5: percentile(a, 50), lean: percentile(b, 50) };
}

/** The benchmark's rows (harness contract). */
export async function run(): Promise<BenchRow[]> {
  try {
    const pages = corpus();
    const { scores, noReference, oursMs, theirsMs } = await score(pages);
    const f1s = scores.map((s) => s.f1);
    const mean = f1s.reduce((a, b) => a + b, 0) / f1s.length;
    const median = percentile(f1s, 50);
    const worst = [...scores].sort((a, b) => a.f1 - b.f1).slice(0, 10);
    const note = `${scores.length} of ${pages.length} htmlparser-benchmark pages ` +
      `(${noReference.length} where Readability finds no article have no reference)`;
    const rows: BenchRow[] = [
      {
        measure: "reader text vs Readability: mean token F1",
        unit: "%",
        project: round(mean * 100),
        baseline: null,
        ratio: mean,
        target: `>= ${TARGET_MEAN_F1 * 100}%`,
        pass: mean >= TARGET_MEAN_F1,
        note,
      },
      {
        measure: "reader text vs Readability: median token F1",
        unit: "%",
        project: round(median * 100),
        baseline: null,
        ratio: median,
        target: "reported",
        pass: true,
        note,
      },
      ...worst.map((s, i): BenchRow => ({
        measure: `reader worst ${i + 1}: ${s.name} (P ${pct(s.precision)}, R ${pct(s.recall)}, ` +
          `${s.oursTokens}/${s.theirsTokens} tokens)`,
        unit: "%",
        project: round(s.f1 * 100),
        baseline: null,
        ratio: s.f1,
        target: "reported",
        pass: true,
      })),
      {
        measure: "reader time, all pages (vs Readability on jsdom)",
        unit: "ms",
        project: round(oursMs),
        baseline: round(theirsMs),
        ratio: oursMs / theirsMs,
        target: "<= 1.00x",
        pass: oursMs <= theirsMs,
        note: "one pass per page, parse included; noisy on a loaded machine",
      },
    ];
    const cost = await parseCost(pages);
    rows.push({
      measure: "parse time, all pages: /read's parse5 tree vs /summary's (lean parser, shaped)",
      unit: "ms",
      project: round(cost.parse5),
      baseline: round(cost.lean),
      ratio: cost.parse5 / cost.lean,
      target: "reported (the cost of a browser-grade tree)",
      pass: true,
      note: "median of interleaved rounds; noisy on a loaded machine",
    });
    rows.push(...await labelledRows());
    return rows;
  } catch (err) {
    return [errorRow("bench/reader.ts", err)];
  }
}

const pct = (n: number) => `${Math.round(n * 100)}%`;

function round(n: number): number {
  return Math.round(n * 100) / 100;
}

if (import.meta.main && Deno.args[0] === "labels") {
  const { scores, oursMsPerPage, readabilityMsPerPage } = await labelledScores(labelledPages(), 1);
  for (const s of scores) {
    console.log(
      `${s.name.slice(0, 12)} ${s.site.padEnd(28)} ours P ${s.ours.precision.toFixed(3)} ` +
        `R ${s.ours.recall.toFixed(3)} F1 ${s.ours.f1.toFixed(3)} | Readability F1 ` +
        s.readability.f1.toFixed(3),
    );
  }
  const sets = [
    ["all", scores],
    ["tuning", scores.filter((s) => !s.heldOut)],
    ["held-out", scores.filter((s) => s.heldOut)],
  ] as const;
  for (const [label, set] of sets) {
    const m = meanScore(set.map((s) => s.ours));
    const r = meanScore(set.map((s) => s.readability));
    console.log(
      `${label} (${set.length}): ours P ${m.precision.toFixed(3)} R ${m.recall.toFixed(3)} F1 ` +
        `${m.f1.toFixed(3)} | Readability P ${r.precision.toFixed(3)} R ` +
        `${r.recall.toFixed(3)} F1 ${r.f1.toFixed(3)}`,
    );
  }
  console.log(
    `ms/page ours ${oursMsPerPage.toFixed(1)} Readability ${readabilityMsPerPage.toFixed(1)}`,
  );
} else if (import.meta.main) console.log(formatTable(await run()));
