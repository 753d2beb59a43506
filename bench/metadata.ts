/**
 * `/metadata`'s extractor against the tools people use instead, on the same HTML in the same
 * run: `metascraper` with its usual rule bundles and `open-graph-scraper` (its `html` option,
 * no fetch). Pages: every HTML fixture in tests/fixtures/pages/ and the largest real-world
 * page of `htmlparser-benchmark`. Reports per-page time ratios and a field-by-field agreement
 * table on the fixtures. No network: everything runs on strings in memory.
 */
import { type BenchRow, formatTable, percentile } from "./harness.ts";
import { extractMetadata } from "../functions/metadata-extractor/extract.ts";
import type { PageMetadata } from "../functions/metadata-extractor/schema.ts";
import { detectCharset } from "../shared/net/safe_fetch.ts";
import { collapse, parseHtml, select, text } from "../shared/net/html.ts";
import { fileURLToPath } from "node:url";
import { decodeHTML } from "entities";

// metascraper's URL checks go through url-regex-safe, which tries the native `re2` addon (its
// build script is skipped here) and falls back to RegExp when it will not load. Saying so up
// front skips the failing require; it must be set before @metascraper/helpers is loaded.
if (Deno.env.get("METASCRAPER_RE2") === undefined) Deno.env.set("METASCRAPER_RE2", "false");

/** One HTML page under test. */
export interface BenchPage {
  name: string;
  /** The URL the page is said to come from (metascraper needs a URL with a real TLD). */
  url: string;
  html: string;
  /** Fixture pages take part in the agreement table. */
  fixture: boolean;
}

/** Loads the fixture pages (decoded as safe fetch would) and the largest benchmark page. */
function loadPages(): BenchPage[] {
  const dir = new URL("../tests/fixtures/pages/", import.meta.url);
  const pages: BenchPage[] = [];
  for (const e of [...Deno.readDirSync(dir)].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!e.isFile || !e.name.endsWith(".html")) continue;
    const bytes = Deno.readFileSync(new URL(e.name, dir));
    pages.push({
      name: e.name,
      url: `https://fixtures.example.com/pages/${e.name}`,
      html: new TextDecoder(detectCharset(null, bytes)).decode(bytes),
      fixture: true,
    });
  }
  const big = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  let largest = { name: "", size: 0 };
  for (const e of Deno.readDirSync(big)) {
    const size = Deno.statSync(`${big}/${e.name}`).size;
    if (size > largest.size) largest = { name: e.name, size };
  }
  pages.push({
    name: `htmlparser-benchmark largest (${Math.round(largest.size / 1024)} KiB)`,
    url: "https://www.example.com/",
    html: Deno.readTextFileSync(`${big}/${largest.name}`),
    fixture: false,
  });
  return pages;
}

/** The fields compared, as each tool names them. */
export interface Comparable {
  title: string | null;
  description: string | null;
  image: string | null;
  author: string | null;
  /** Every date the tool reports (a baseline's date agrees when it matches any of ours). */
  date: string[];
  lang: string | null;
  publisher: string | null;
  logo: string | null;
  url: string | null;
}

/** A candidate: how it extracts, and how its result maps onto the compared fields. */
export interface Candidate {
  name: string;
  extract(page: BenchPage): Promise<unknown> | unknown;
  fields(result: unknown, page: BenchPage): Comparable;
}

const str = (v: unknown): string | null => (typeof v === "string" && v.trim() ? v.trim() : null);

export function ours(): Candidate {
  return {
    name: "extractMetadata",
    extract: (page) => extractMetadata(page.html, page.url),
    fields(result) {
      const m = result as PageMetadata;
      return {
        title: m.title,
        description: m.description,
        image: m.image?.url ?? null,
        author: m.author,
        date: [m.date, m.publishedTime, m.modifiedTime].filter((d): d is string => d !== null),
        lang: m.lang,
        publisher: m.siteName,
        logo: m.logo,
        url: m.canonical,
      };
    },
  };
}

export async function metascraper(): Promise<Candidate> {
  const { default: createMetascraper } = await import("metascraper");
  const bundles = await Promise.all([
    import("metascraper-title"),
    import("metascraper-description"),
    import("metascraper-image"),
    import("metascraper-logo"),
    import("metascraper-url"),
    import("metascraper-author"),
    import("metascraper-date"),
    import("metascraper-lang"),
    import("metascraper-publisher"),
  ]);
  // deno-lint-ignore no-explicit-any
  const scrape = createMetascraper(bundles.map((m: any) => m.default()));
  return {
    name: "metascraper",
    extract: (page) => scrape({ html: page.html, url: page.url }),
    fields(result) {
      const r = result as Record<string, unknown>;
      return {
        title: str(r.title),
        description: str(r.description),
        image: str(r.image),
        author: str(r.author),
        date: str(r.date) ? [r.date as string] : [],
        lang: str(r.lang),
        publisher: str(r.publisher),
        logo: str(r.logo),
        url: str(r.url),
      };
    },
  };
}

async function openGraphScraper(): Promise<Candidate> {
  const { default: ogs } = await import("open-graph-scraper");
  return {
    name: "open-graph-scraper",
    extract: async (page) => (await ogs({ html: page.html })).result,
    fields(result) {
      const r = result as Record<string, unknown>;
      const images = r.ogImage as { url?: string }[] | undefined;
      const dates = [r.articlePublishedTime, r.articleModifiedTime, r.ogDate].map(str);
      return {
        title: str(r.ogTitle),
        description: str(r.ogDescription),
        image: str(images?.[0]?.url),
        author: str(r.author),
        date: dates.filter((d): d is string => d !== null),
        lang: str(r.ogLocale),
        publisher: str(r.ogSiteName),
        logo: str(r.ogLogo),
        url: str(r.ogUrl),
      };
    },
  };
}

/** Warm-up per candidate and page (the JIT settles), the length of one timed batch, the rounds. */
const WARMUP_MS = 150;
const BATCH_MS = 2;
const ROUNDS = 25;

/** Calls of `c` on `page` that take about BATCH_MS, after warming up. */
async function calibrate(c: Candidate, page: BenchPage): Promise<number> {
  const started = performance.now();
  let calls = 0;
  while (calls < 10 || performance.now() - started < WARMUP_MS) {
    await c.extract(page);
    calls++;
  }
  const perCall = (performance.now() - started) / calls;
  return Math.max(1, Math.min(1000, Math.round(BATCH_MS / perCall)));
}

/**
 * Median milliseconds per extraction of one page, for each candidate. Rounds interleave the
 * candidates (one batch each per round), so a change in machine load hits all of them alike.
 */
async function timePage(candidates: Candidate[], page: BenchPage): Promise<number[]> {
  const batch: number[] = [];
  for (const c of candidates) batch.push(await calibrate(c, page));
  const samples: number[][] = candidates.map(() => []);
  for (let round = 0; round < ROUNDS; round++) {
    for (let i = 0; i < candidates.length; i++) {
      const t = performance.now();
      for (let k = 0; k < batch[i]; k++) await candidates[i].extract(page);
      samples[i].push((performance.now() - t) / batch[i]);
    }
  }
  return samples.map((s) => percentile(s, 50));
}

/** Time rows: this project against each baseline, per page and in total. */
async function timeRows(
  pages: BenchPage[],
  mine: Candidate,
  baselines: { c: Candidate; target: number }[],
): Promise<BenchRow[]> {
  const candidates = [mine, ...baselines.map((b) => b.c)];
  const times = new Map<string, number[]>(candidates.map((c) => [c.name, []]));
  for (const page of pages) {
    const medians = await timePage(candidates, page);
    candidates.forEach((c, i) => times.get(c.name)!.push(medians[i]));
  }
  const rows: BenchRow[] = [];
  const mineTimes = times.get(mine.name)!;
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  for (const { c, target } of baselines) {
    const theirs = times.get(c.name)!;
    const row = (measure: string, project: number, baseline: number): BenchRow => ({
      measure,
      unit: "ms",
      project: round(project),
      baseline: round(baseline),
      ratio: project / baseline,
      target: `<= ${target.toFixed(2)}x`,
      pass: project / baseline <= target,
      note: `${(baseline / project).toFixed(1)}x faster than ${c.name}`,
    });
    pages.forEach((page, i) =>
      rows.push(row(`${page.name} vs ${c.name}`, mineTimes[i], theirs[i]))
    );
    rows.push(row(`all pages vs ${c.name}`, sum(mineTimes), sum(theirs)));
  }
  return rows;
}

function round(n: number): number {
  return Math.round(n * 1000) / 1000;
}

/** The fields of the corpus agreement figure (logo and url are reported, not counted). */
export const CORPUS_FIELDS: (keyof Comparable)[] = [
  "title",
  "description",
  "image",
  "author",
  "date",
  "lang",
  "publisher",
];
/** Every field compared. */
const FIELDS: (keyof Comparable)[] = [...CORPUS_FIELDS, "logo", "url"];

/** How far apart two dates may be and still agree: a day and a half (timezones, noon vs midnight). */
const DAY_SLACK_MS = 36 * 3600 * 1000;

/** One cell of the agreement table. */
export type Verdict = "agree" | "differ" | "ours only" | "theirs only" | "neither";

/** Values compared as a reader would: URLs resolved, dates as instants, languages by primary tag. */
function same(field: keyof Comparable, ours: string, theirs: string, page: BenchPage): boolean {
  // metascraper curls straight quotes ("smartquotes"); the page's own characters are compared.
  // It also ends a cut description with "…" where the page wrote "...".
  const norm = (s: string) =>
    s.replace(/[‘’‚‛′]/g, "'").replace(/[“”„‟″]/g, '"').replace(/\s?\.\.\.?$/, "…")
      .replace(/\s+/g, " ").trim();
  switch (field) {
    case "image":
    case "logo":
    case "url":
      try {
        return href(ours, page) === href(theirs, page);
      } catch {
        return false;
      }
    case "lang":
      return ours.split(/[-_]/)[0].toLowerCase() === theirs.split(/[-_]/)[0].toLowerCase();
    case "date": {
      const a = Date.parse(ours);
      const b = Date.parse(theirs);
      if (Number.isNaN(a) || Number.isNaN(b)) return norm(ours) === norm(theirs);
      // The same day, give or take a timezone: pages write a date alone in one place and the
      // time in another (metascraper reads a date alone as noon, we as midnight, UTC).
      return Math.abs(a - b) <= DAY_SLACK_MS;
    }
    default:
      return norm(ours) === norm(theirs);
  }
}

/**
 * A URL as it loads: resolved against the page, with a doubled "/" inside the path written once
 * (metascraper normalises its URLs so, with normalize-url; the page wrote "//dpp/news").
 */
function href(url: string, page: BenchPage): string {
  const u = new URL(url, page.url);
  u.pathname = u.pathname.replace(/\/{2,}/g, "/");
  return u.href;
}

/** The verdict on one field of one page. */
export function verdict(
  field: keyof Comparable,
  mine: Comparable,
  theirs: Comparable,
  page: BenchPage,
): Verdict {
  if (field === "date") {
    if (mine.date.length === 0 && theirs.date.length === 0) return "neither";
    if (theirs.date.length === 0) return "ours only";
    if (mine.date.length === 0) return "theirs only";
    return theirs.date.some((t) => mine.date.some((o) => same("date", o, t, page)))
      ? "agree"
      : "differ";
  }
  const o = mine[field] as string | null;
  const t = theirs[field] as string | null;
  if (o === null && t === null) return "neither";
  if (t === null) return "ours only";
  if (o === null) return "theirs only";
  return same(field, o, t, page) ? "agree" : "differ";
}

/** The agreement of one baseline with this project on the fixture pages. */
export interface Agreement {
  baseline: string;
  pages: string[];
  /** verdicts[field][page index] */
  verdicts: Record<string, Verdict[]>;
  /** Where the two differ, with both values. */
  differences: string[];
}

async function agreement(pages: BenchPage[], mine: Candidate, c: Candidate): Promise<Agreement> {
  const fixtures = pages.filter((p) => p.fixture);
  const out: Agreement = {
    baseline: c.name,
    pages: fixtures.map((p) => p.name),
    verdicts: {},
    differences: [],
  };
  for (const f of FIELDS) out.verdicts[f] = [];
  for (const page of fixtures) {
    const a = mine.fields(await mine.extract(page), page);
    const b = c.fields(await c.extract(page), page);
    for (const f of FIELDS) {
      const v = verdict(f, a, b, page);
      out.verdicts[f].push(v);
      if (v !== "agree" && v !== "neither") {
        out.differences.push(
          `${page.name} ${f} (${v}): ours ${JSON.stringify(a[f])}, ${c.name} ${
            JSON.stringify(b[f])
          }`,
        );
      }
    }
  }
  return out;
}

const MARK: Record<Verdict, string> = {
  agree: "=",
  differ: "≠",
  "ours only": "ours",
  "theirs only": "theirs",
  neither: "·",
};

/** An agreement as a Markdown table: `=` agree, `≠` differ, `ours`/`theirs` only one found it, `·` neither. */
export function formatAgreement(a: Agreement): string {
  const lines = [
    `| field (vs ${a.baseline}) | ${a.pages.join(" | ")} | agree where both found one |`,
    `|---|${a.pages.map(() => "---").join("|")}|---|`,
  ];
  for (const [field, verdicts] of Object.entries(a.verdicts)) {
    const both = verdicts.filter((v) => v === "agree" || v === "differ").length;
    const agree = verdicts.filter((v) => v === "agree").length;
    lines.push(`| ${field} | ${verdicts.map((v) => MARK[v]).join(" | ")} | ${agree}/${both} |`);
  }
  return lines.join("\n");
}

/** Target: share of field values that agree with metascraper on real pages. */
const TARGET_AGREEMENT = 0.92;
/** Target: the same share on the held-out half of the corpus. */
const TARGET_HELD_OUT = 0.93;

/** The URL a real page says it lives at (canonical, og:url), else a placeholder. */
export function pageUrl(html: string): string {
  const found = html.match(/<link[^>]+rel=["']?canonical["']?[^>]*>/i)?.[0]
    ?.match(/href=["']?([^"'\s>]+)/i)?.[1] ??
    html.match(/<meta[^>]+property=["']?og:url["']?[^>]*>/i)?.[0]
      ?.match(/content=["']?([^"'\s>]+)/i)?.[1];
  try {
    if (found && /^https?:\/\//i.test(found)) return new URL(found).href;
  } catch {
    // not a URL
  }
  return "https://www.example.com/";
}

/**
 * Which half of the corpus a page is in, by a stable hash (FNV-1a, 32-bit) of its file name:
 * "tuning" pages are the ones whose differences are read when rules are changed; "held-out"
 * pages are not looked at, so their figure says how the rules do on pages they were not made on.
 */
export function corpusHalf(name: string): "tuning" | "held-out" {
  let h = 0x811c9dc5;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 2 === 0 ? "tuning" : "held-out";
}

/** The htmlparser-benchmark pages (258 real pages), each at the URL it names. */
export function corpusPages(): BenchPage[] {
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  const names = [...Deno.readDirSync(dir)].filter((e) => e.isFile).map((e) => e.name).sort();
  return names.map((name) => {
    const html = Deno.readTextFileSync(`${dir}/${name}`);
    return { name, url: pageUrl(html), html, fixture: true };
  });
}

/**
 * Differences reviewed by hand where metascraper is the one that is wrong, as rules: each says
 * what metascraper does and is shown on a small page by
 * bench/metascraper_review_test.ts. A difference that matches a rule counts
 * as "metascraper wrong" in the reviewed figure; every other difference counts against us.
 */
export const METASCRAPER_WRONG: {
  field: keyof Comparable;
  reason: string;
  applies(ours: Comparable, theirs: Comparable, page: BenchPage): boolean;
}[] = [
  {
    field: "date",
    reason: "fills in a missing year or day from today's clock (its year is nowhere in the page)",
    applies: (_o, t, page) =>
      // The year as a word: "\u2026" in a script is not the year 2026.
      t.date.some((d) => !new RegExp(`\\b${new Date(d).getUTCFullYear()}\\b`).test(page.html)),
  },
  {
    field: "date",
    reason:
      "puts a date in a `publish` class (a related-stories list) before the page's <meta name=date>",
    applies: (o, t, page) => {
      const declared = page.html.match(
        /<meta\s+name=["']?date["']?\s+content=["']([^"']{1,40})["']/i,
      );
      return declared !== null && t.date.length > 0 &&
        o.date.some((d) => same("date", d, declared[1], page)) &&
        !t.date.some((d) => same("date", d, declared[1], page));
    },
  },
  {
    field: "lang",
    reason: "does not read xml:lang or Content-Language, where the page declares its language",
    applies: (o, t, page) =>
      t.lang === null && o.lang !== null &&
      /xml:lang=|http-equiv=["']?content-language/i.test(page.html),
  },
  {
    field: "image",
    reason: "takes the page's first <img>, an icon, logo or button, as the preview image",
    applies: (_o, t) =>
      t.image !== null &&
      /icon|logo|button|btn|email|avatar|gravatar|rss|facebook|loading|cover_thumb/i.test(t.image),
  },
  {
    field: "description",
    reason: "leaves twice-encoded entities (&rsquo;, &#39;) in the text",
    applies: (o, t) =>
      t.description !== null && o.description !== null && /&#?\w+;/.test(t.description) &&
      decodeHTML(t.description).replace(/\s+/g, " ").startsWith(o.description.slice(0, 40)),
  },
  {
    field: "author",
    reason: "takes a date stamp, or a byline with its date, for the author's name",
    applies: (_o, t) =>
      t.author !== null && /\b(?:a|p)\.?m\.?\b.*\b\d{4}$|\b\d{4}\s+\d{1,2}:\d{2}/i.test(t.author),
  },
  {
    field: "author",
    reason: "deletes the '@' in an e-mail address or handle",
    applies: (o, t) => o.author !== null && t.author === o.author.replace("@", ""),
  },
  {
    field: "author",
    reason: "takes a commenter's name (a comment's 'name wrote:' line) for the page's author",
    applies: (o, t, page) =>
      t.author !== null && o.author !== t.author &&
      new RegExp(`>\\s*${literal(t.author)}\\s*(?:<[^>]{0,200}>\\s*)*(?:wrote|says)\\s*:`, "i")
        .test(page.html),
  },
  {
    field: "author",
    reason: "takes a top heading's or the navigation's text ('For Authors') for the author",
    applies: (o, t, page) =>
      t.author !== null && o.author !== t.author &&
      textsOf(page, HEADING_OR_NAV).some((x) => x === t.author),
  },
  {
    field: "author",
    reason: "finds no author where the page's byline (class*=byline) begins with the name (it " +
      "refuses a whole byline when it reads a date in it; ours is the name before the date)",
    applies: (o, t, page) =>
      t.author === null && o.author !== null &&
      textsOf(page, '[class*="byline" i]').some((x) =>
        x.replace(/^by\s+/i, "").startsWith(o.author!)
      ),
  },
  {
    field: "publisher",
    reason: "takes a top heading's or the navigation's text for the publisher",
    applies: (o, t, page) =>
      t.publisher !== null && o.publisher !== t.publisher &&
      textsOf(page, HEADING_OR_NAV).some((x) => x === t.publisher),
  },
  {
    field: "date",
    reason: "does not read Dublin Core dates (<meta name=DC.date.issued>), where the page " +
      "declares its date only there",
    applies: (o, t, page) => {
      const dc = page.html.match(
        /<meta\s+name=["']?dc\.date(?:\.issued|\.created)?["']?\s+content=["']([^"']{1,40})["']/i,
      );
      return dc !== null && t.date.length === 0 && o.date.some((d) => same("date", d, dc[1], page));
    },
  },
  {
    field: "description",
    reason: "gives no description where the page declares none (it has no body fallback; " +
      "ours is the article's first paragraph)",
    applies: (o, t, page) =>
      t.description === null && o.description !== null &&
      !declaresDescription(page) &&
      textsOf(page, "p").some((x) => x.startsWith(o.description!.replace(/…$/, ""))),
  },
  {
    field: "image",
    reason: "takes an <img> the page declares under 100 px (another story's thumbnail, an " +
      "icon) where the page declares no preview image",
    applies: (o, t, page) => {
      if (t.image === null || o.image === t.image || DECLARED_IMAGE.test(page.html)) return false;
      return select(parseHtml(page.html), "img[src]").some((img) => {
        const side = Math.min(
          ...["width", "height"].map((k) => parseInt(img.attribs[k] ?? "", 10) || Infinity),
        );
        return side < 100 && same("image", img.attribs.src, t.image!, page);
      });
    },
  },
];

/** A value written into a regular expression as itself. */
const literal = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** The text of the page's elements matching `selector`, white space collapsed. */
function textsOf(page: BenchPage, selector: string): string[] {
  return select(parseHtml(page.html), selector).map((el) => collapse(text(el)));
}

/** A top heading, the navigation, and every element inside them. */
const HEADING_OR_NAV = ["h1", "h2", "nav", "[role=navigation]"].flatMap((s) => [s, `${s} *`])
  .join(", ");

/** Whether the page declares a description that is not blank (Open Graph, Twitter, <meta>). */
function declaresDescription(page: BenchPage): boolean {
  return [...page.html.matchAll(/<meta\b[^>]{0,500}>/gi)].some(([tag]) =>
    /(?:name|property)=["']?(?:og:|twitter:)?description["'\s>]/i.test(tag) &&
    /content=["']?\s*[^"'\s>]/i.test(tag)
  );
}
/** Whether the page declares a preview image anywhere metascraper or we read one. */
const DECLARED_IMAGE =
  /<meta[^>]+(?:name|property|itemprop)=["']?(?:og:image|twitter:image|image)|rel=["']?image_src|"image"\s*:/i;

/** Per-field verdict counts over the corpus, and the differences for review. */
export interface CorpusAgreement {
  pages: number;
  counts: Record<string, Record<Verdict, number>>;
  /** Differences where a METASCRAPER_WRONG rule applies, by field. */
  reviewed: Record<string, number>;
  differences: string[];
}

/** Compares this project with metascraper on every corpus page. */
export async function corpusAgreement(
  mine: Candidate,
  c: Candidate,
  pages: BenchPage[] = corpusPages(),
): Promise<CorpusAgreement> {
  const counts: Record<string, Record<Verdict, number>> = {};
  for (const f of FIELDS) {
    counts[f] = { agree: 0, differ: 0, "ours only": 0, "theirs only": 0, neither: 0 };
  }
  const differences: string[] = [];
  const reviewed: Record<string, number> = Object.fromEntries(FIELDS.map((f) => [f, 0]));
  for (const page of pages) {
    const a = mine.fields(await mine.extract(page), page);
    const b = c.fields(await c.extract(page), page);
    for (const f of FIELDS) {
      const v = verdict(f, a, b, page);
      counts[f][v]++;
      if (v !== "agree" && v !== "neither") {
        const rule = METASCRAPER_WRONG.find((r) => r.field === f && r.applies(a, b, page));
        if (rule) reviewed[f]++;
        differences.push(
          `${page.name.slice(0, 12)} ${f} (${v}${rule ? `; metascraper ${rule.reason}` : ""}): ` +
            `ours ${JSON.stringify(a[f])}, ${c.name} ${JSON.stringify(b[f])}`,
        );
      }
    }
  }
  return { pages: pages.length, counts, reviewed, differences };
}

/** Agreements on disjoint page sets as one (counts, reviewed and differences added up). */
export function mergeAgreements(parts: CorpusAgreement[]): CorpusAgreement {
  const out: CorpusAgreement = { pages: 0, counts: {}, reviewed: {}, differences: [] };
  for (const part of parts) {
    out.pages += part.pages;
    out.differences.push(...part.differences);
    for (const [f, c] of Object.entries(part.counts)) {
      const into = out.counts[f] ??= {
        agree: 0,
        differ: 0,
        "ours only": 0,
        "theirs only": 0,
        neither: 0,
      };
      for (const v of Object.keys(c) as Verdict[]) into[v] += c[v];
      out.reviewed[f] = (out.reviewed[f] ?? 0) + part.reviewed[f];
    }
  }
  return out;
}

/** Agreement of one field: pages where the two give the same value (or both none), of all. */
export function fieldAgreement(c: Record<Verdict, number>): number {
  const total = Object.values(c).reduce((x, y) => x + y, 0);
  return (c.agree + c.neither) / total;
}

/** The corpus agreement as rows: one per field and the overall figure against the target. */
export function agreementRows(a: CorpusAgreement): BenchRow[] {
  const rows: BenchRow[] = [];
  let agreeing = 0;
  let wrong = 0;
  let total = 0;
  const pct = (n: number) => Math.round(n * 1000) / 10;
  for (const f of FIELDS) {
    const c = a.counts[f];
    const share = fieldAgreement(c);
    if (CORPUS_FIELDS.includes(f)) {
      agreeing += c.agree + c.neither;
      wrong += a.reviewed[f];
      total += a.pages;
    }
    rows.push({
      measure: `/metadata ${f} agrees with metascraper (${a.pages} real pages)`,
      unit: "%",
      project: pct(share),
      baseline: null,
      ratio: share,
      target: "reported",
      pass: true,
      note: `agree ${c.agree}, both none ${c.neither}, differ ${c.differ}, ` +
        `only ours ${c["ours only"]}, only metascraper ${c["theirs only"]}; ` +
        `metascraper wrong (reviewed) ${a.reviewed[f]}`,
    });
  }
  const overall = agreeing / total;
  rows.push({
    measure: `/metadata agrees with metascraper: ${CORPUS_FIELDS.join(", ")} (${a.pages} pages)`,
    unit: "%",
    project: pct(overall),
    baseline: null,
    ratio: overall,
    target: `>= ${TARGET_AGREEMENT * 100}%`,
    pass: overall >= TARGET_AGREEMENT,
    note: "htmlparser-benchmark pages; a field agrees when both give the same value or both none " +
      "(strict: every difference counts against us, even where metascraper is wrong)",
  });
  const reviewedShare = (agreeing + wrong) / total;
  rows.push({
    measure: `/metadata agrees with metascraper or metascraper is wrong (reviewed rules)`,
    unit: "%",
    project: pct(reviewedShare),
    baseline: null,
    ratio: reviewedShare,
    target: "reported",
    pass: true,
    note: "METASCRAPER_WRONG in bench/metadata.ts, each shown by metascraper_review_test.ts",
  });
  return rows;
}

/** Everything the benchmark measures: time rows and the two agreement tables. */
export async function measure(): Promise<
  { rows: BenchRow[]; agreements: Agreement[]; corpus: CorpusAgreement }
> {
  const pages = loadPages();
  const mine = ours();
  const ms = await metascraper();
  const og = await openGraphScraper();
  const rows = await timeRows(pages, mine, [{ c: ms, target: 1 / 3 }, { c: og, target: 1 }]);
  const agreements = [await agreement(pages, mine, ms), await agreement(pages, mine, og)];
  const all = corpusPages();
  const halves = await Promise.all(
    (["tuning", "held-out"] as const).map(async (half) => ({
      half,
      a: await corpusAgreement(mine, ms, all.filter((p) => corpusHalf(p.name) === half)),
    })),
  );
  const corpus = mergeAgreements(halves.map((h) => h.a));
  // The halves' figures, strict and reviewed: the held-out one is the figure for pages no rule
  // was made on, held to the issue's target.
  const halfRows = halves.flatMap(({ half, a }) => {
    const [strict, reviewed] = agreementRows(a).slice(-2);
    const target = half === "held-out"
      ? { target: `>= ${TARGET_HELD_OUT * 100}%`, pass: strict.ratio >= TARGET_HELD_OUT }
      : {};
    return [
      {
        ...strict,
        measure: `/metadata agrees with metascraper, ${half} half (${a.pages} pages, by name hash)`,
        ...target,
      },
      { ...reviewed, measure: `/metadata agrees with metascraper or it is wrong, ${half} half` },
    ];
  });
  return { rows: [...rows, ...agreementRows(corpus), ...halfRows], agreements, corpus };
}

/** The benchmark's rows (harness contract). */
export async function run(): Promise<BenchRow[]> {
  return (await measure()).rows;
}

if (import.meta.main && Deno.args[0] === "corpus") {
  // `deno run -A bench/metadata.ts corpus [tuning|held-out]`: the corpus agreement on each half
  // (and the whole), with the differences of the half named (none listed without one).
  const all = corpusPages();
  const ms = await metascraper();
  for (const half of ["tuning", "held-out"] as const) {
    const pages = all.filter((p) => corpusHalf(p.name) === half);
    const corpus = await corpusAgreement(ours(), ms, pages);
    console.log(`\n## ${half} half (${pages.length} pages)\n`);
    console.log(formatTable(agreementRows(corpus)));
    if (Deno.args[1] === half) { for (const d of corpus.differences) console.log(`- ${d}`); }
  }
} else if (import.meta.main) {
  const { rows, agreements } = await measure();
  console.log(formatTable(rows));
  for (const a of agreements) {
    console.log(`\n${formatAgreement(a)}\n`);
    for (const d of a.differences) console.log(`- ${d}`);
  }
}
