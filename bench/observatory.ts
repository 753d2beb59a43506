/**
 * `/inspect`'s security audit against the MDN HTTP Observatory (`@mdn/mdn-http-observatory`),
 * on the same responses in the same run. Each case is a host served over plain HTTP and real
 * TLS on loopback (a self-signed certificate both sides trust): one of the real pages of
 * `htmlparser-benchmark`, with a header set, an HTTP → HTTPS behaviour and a CORS preflight
 * answer from bench/fixtures/observatory_profiles.ts.
 *
 * Our side is `inspectUrl("https://<host>/")`, as a user calls it. The Observatory's side is
 * what its scanner's retriever collects for `<host>` (the http:// and https:// sessions with
 * their redirect chains, the https page, its cookie jar, the `<meta http-equiv>` map, and the
 * preflight to the final URL), gathered by the same safe fetch from the same servers, then
 * handed to its own ten test functions and its own grader: no network scanner, no database.
 *
 * Reported: per test, how often both give the same verdict (pass flag and score modifier);
 * how often the grades agree, over the whole report and over the ten shared tests alone; and
 * the cases where the grades differ, with the tests that made the difference.
 */
import fs from "node:fs";
import { fileURLToPath } from "node:url";
import { ALL_TESTS } from "@mdn/mdn-http-observatory/src/constants.js";
import { hsts } from "@mdn/mdn-http-observatory/src/analyzer/hsts.js";
import { MINIMUM_SCORE_FOR_EXTRA_CREDIT } from "@mdn/mdn-http-observatory/src/grader/charts.js";
import { getGradeForScore, getScoreModifier } from "@mdn/mdn-http-observatory/src/grader/grader.js";
import { parseHttpEquivHeaders } from "@mdn/mdn-http-observatory/src/retriever/utils.js";
import { Requests } from "@mdn/mdn-http-observatory/src/types.js";
import { AxiosHeaders } from "axios";
import { CookieJar } from "tough-cookie";
import { inspectUrl } from "../functions/devtools-inspector/inspect.ts";
import type { InspectResult } from "../functions/devtools-inspector/schema.ts";
import { gradeOf, totalScore } from "../functions/devtools-inspector/score.ts";
import { type FetchPolicy, type FetchResult, safeFetch } from "../shared/net/safe_fetch.ts";
import { startTwinServers } from "../tests/support/tls.ts";
import { openPolicy } from "../tests/support/policy.ts";
import { type BenchRow, formatTable, QUICK } from "./harness.ts";
import {
  CORS_PROFILES,
  HEADER_PROFILES,
  REDIRECT_PROFILES,
} from "./fixtures/observatory_profiles.ts";

/** The Origin the Observatory's retriever sends with its preflight (its config default). */
const OBSERVATORY_ORIGIN = "https://http-observatory.security.mozilla.org";

/** Agreement target: the grade agrees with the Observatory's at least 95% of the time. */
const TARGET = 0.95;

/** One host of the corpus. */
interface Case {
  host: string;
  www: string;
  page: string;
  pageName: string;
  headers: (typeof HEADER_PROFILES)[number];
  redirect: (typeof REDIRECT_PROFILES)[number];
  cors: (typeof CORS_PROFILES)[number];
}

/** What each side said about one case. */
interface Verdicts {
  case: Case;
  ours: InspectResult["security"];
  theirs: {
    score: number;
    grade: string;
    tests: Map<string, { result: string; pass: boolean; modifier: number }>;
  };
}

/**
 * The Observatory's HSTS test reads Chromium's preload list from its package's
 * conf/hsts-preload.json, which its npm postinstall downloads (Deno skips install scripts, and
 * that host is unreachable here). An empty list stands in: no loopback host is preloaded, so
 * the verdicts are the same. The package reads the file once, with node:fs, and keeps the map:
 * that one synchronous read is answered `{}`, so nothing is written into node_modules.
 */
function loadEmptyPreloadList(): void {
  const readFileSync = fs.readFileSync;
  fs.readFileSync =
    ((path: string, options: unknown) =>
      String(path).endsWith("/conf/hsts-preload.json")
        ? "{}"
        : Reflect.apply(readFileSync, fs, [path, options])) as typeof fs.readFileSync;
  try {
    if (hsts().size !== 0) throw new Error("the Observatory's HSTS preload list is not empty");
  } finally {
    fs.readFileSync = readFileSync;
  }
}

/** The corpus: every real page of htmlparser-benchmark (or a slice with BENCH_QUICK=1). */
function buildCases(): Case[] {
  const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
  const names = [...Deno.readDirSync(dir)].map((e) => e.name).filter((n) => n.endsWith(".html"))
    .sort();
  const count = QUICK ? 48 : Math.min(names.length, 192);
  const cases: Case[] = [];
  for (let i = 0; i < count; i++) {
    const name = names[Math.floor((i * names.length) / count)];
    cases.push({
      host: `s${i}.bench.test`,
      www: `www.s${i}.bench.test`,
      page: Deno.readTextFileSync(`${dir}/${name}`),
      pageName: name.slice(0, 12),
      // Coprime strides, so that every header set meets every redirect and CORS behaviour.
      headers: HEADER_PROFILES[i % HEADER_PROFILES.length],
      redirect: REDIRECT_PROFILES[(i * 3 + Math.floor(i / 16)) % REDIRECT_PROFILES.length],
      cors: CORS_PROFILES[(i * 5 + Math.floor(i / 8)) % CORS_PROFILES.length],
    });
  }
  return cases;
}

/** Serves every case; returns the policy that reaches them by name. */
async function serveCases(cases: Case[]) {
  const byHost = new Map<string, Case>();
  for (const c of cases) {
    byHost.set(c.host, c);
    byHost.set(c.www, c);
  }
  const servers = await startTwinServers(cases.flatMap((c) => [c.host, c.www]), (req, scheme) => {
    const url = new URL(req.url);
    const c = byHost.get(url.hostname);
    if (!c) return new Response("unknown host", { status: 421 });
    if (req.method === "OPTIONS") {
      const { status, headers } = c.cors.answer(req.headers.get("origin") ?? "");
      return new Response(null, { status, headers });
    }
    const redirect = c.redirect.redirects(c.host, c.www)[`${scheme}://${url.hostname}`];
    if (redirect && url.pathname === "/") {
      return new Response(null, { status: redirect[0], headers: { location: redirect[1] } });
    }
    if (url.pathname === "/" || url.pathname === "/home") {
      const headers = new Headers({ "content-type": "text/html; charset=utf-8" });
      for (const [name, value] of c.headers.headers) headers.append(name, value);
      return new Response(c.page, { headers });
    }
    return new Response("not found", { status: 404 });
  });
  const closed = Deno.listen({ hostname: "127.0.0.1", port: 0 });
  const closedPort = (closed.addr as Deno.NetAddr).port;
  closed.close(); // nothing listens there: "no plain HTTP"
  const ports = new Map<string, number>();
  for (const c of cases) {
    for (const host of [c.host, c.www]) {
      ports.set(`http://${host}`, c.redirect.noHttp ? closedPort : servers.httpPort);
      ports.set(`https://${host}`, servers.httpsPort);
    }
  }
  const policy: FetchPolicy = openPolicy({
    timeoutMs: 20_000,
    resolve: () => Promise.resolve([{ address: "127.0.0.1", family: 4 }]),
    ports,
    ca: servers.cert,
  });
  return { policy, close: () => servers.close() };
}

/** A fetch result as axios hands it to the Observatory (lowercased names, Set-Cookie a list). */
function axiosLike(res: FetchResult) {
  const headers: Record<string, string | string[]> = {};
  const cookies: string[] = [];
  for (const [name, value] of res.headers) {
    if (name === "set-cookie") cookies.push(value);
    else headers[name] = value;
  }
  if (cookies.length) headers["set-cookie"] = cookies;
  return {
    status: res.status,
    headers: new AxiosHeaders(headers),
    data: res.text,
    verified: true,
    config: { url: res.finalUrl },
  };
}

/** The redirect history the Observatory's session records: every response, the final one too. */
function history(res: FetchResult) {
  return [
    ...res.redirects.map((h) => ({ url: new URL(h.url), status: h.status })),
    { url: new URL(res.finalUrl), status: res.status },
  ];
}

async function attempt<T>(p: Promise<T>): Promise<T | null> {
  try {
    return await p;
  } catch {
    return null;
  }
}

/** What the Observatory's retriever would collect for a host, then its tests and its grader. */
async function observatory(c: Case, policy: FetchPolicy): Promise<Verdicts["theirs"]> {
  const http = await attempt(safeFetch(`http://${c.host}/`, policy));
  const https = await attempt(safeFetch(`https://${c.host}/`, policy));
  const requests = new Requests(c.host);
  const r = requests.responses;
  r.http = http && axiosLike(http);
  r.https = https && axiosLike(https);
  r.httpRedirects = http ? history(http) : [];
  r.httpsRedirects = r.httpRedirects; // as its retriever does
  const session = https ?? http;
  if (!session) throw new Error(`${c.host}: neither http nor https answered`);
  const auto = axiosLike(session);
  const jar = new CookieJar();
  for (const line of session.setCookies) {
    jar.setCookieSync(line, session.finalUrl, { ignoreError: true });
  }
  requests.session = { url: new URL(`${https ? "https" : "http"}://${c.host}/`), jar };
  requests.resources.path = session.text;
  r.auto = {
    ...auto,
    httpEquiv: parseHttpEquivHeaders(session.text, requests.session.url.href),
  };
  const preflight = await attempt(safeFetch(session.finalUrl, policy, {
    method: "OPTIONS",
    headers: { "origin": OBSERVATORY_ORIGIN, "access-control-request-method": "GET" },
  }));
  // axios (no validateStatus) rejects a non-2xx answer, and the retriever keeps null then.
  r.cors = preflight && preflight.status >= 200 && preflight.status < 300
    ? { ...axiosLike(preflight), request: { headers: { origin: OBSERVATORY_ORIGIN } } }
    : null;

  const tests = new Map<string, { result: string; pass: boolean; modifier: number }>();
  let withBonus = 100;
  let penalties = 100;
  for (const test of ALL_TESTS) {
    const out = quietly(() => test(requests));
    const modifier = getScoreModifier(out.result);
    tests.set((out.constructor as { name: string }).name, {
      result: out.result,
      pass: !!out.pass,
      modifier,
    });
    withBonus += modifier;
    if (modifier < 0) penalties += modifier;
  }
  const { score, grade } = getGradeForScore(
    penalties >= MINIMUM_SCORE_FOR_EXTRA_CREDIT ? withBonus : penalties,
  );
  return { score, grade, tests };
}

/**
 * Runs `fn` with console.error muted: the Observatory's JSDOM reports every stylesheet of the
 * real pages it cannot resolve ("Could not parse CSS @import URL"), which says nothing here.
 */
function quietly<T>(fn: () => T): T {
  const error = console.error;
  console.error = () => {};
  try {
    return fn();
  } finally {
    console.error = error;
  }
}

/** Runs both sides over the corpus. */
async function measure(): Promise<{ rows: BenchRow[]; differences: string[] }> {
  loadEmptyPreloadList();
  const cases = buildCases();
  const { policy, close } = await serveCases(cases);
  const verdicts: Verdicts[] = [];
  try {
    for (const c of cases) {
      const ours = (await inspectUrl(`https://${c.host}/`, policy)).security;
      verdicts.push({ case: c, ours, theirs: await observatory(c, policy) });
    }
  } finally {
    await close();
  }

  const testNames = [...verdicts[0].theirs.tests.keys()].sort();
  const rows: BenchRow[] = [];
  const n = verdicts.length;
  const corpus = `${n} hosts over loopback HTTP + TLS: real pages of htmlparser-benchmark × ` +
    `${HEADER_PROFILES.length} header sets × ${REDIRECT_PROFILES.length} HTTP behaviours × ` +
    `${CORS_PROFILES.length} preflight answers`;
  for (const name of testNames) {
    let same = 0;
    let documented = 0;
    for (const v of verdicts) {
      const theirs = v.theirs.tests.get(name)!;
      const ours = v.ours.checks.find((c) => c.id === name);
      if (ours && ours.pass === theirs.pass && ours.scoreModifier === theirs.modifier) same++;
      else if (ours && isDocumentedDifference(v.case, name, ours.result, theirs.result)) {
        documented++;
      }
    }
    const row = agreementRow(`verdict agreement: ${name}`, same / n, corpus);
    if (documented > 0) {
      row.pass = (same + documented) / n >= TARGET;
      row.target += " (documented differences excepted)";
      row.note = `${documented} of ${n - same} differences are the README's deliberate ` +
        `choices (frame-ancestors that allows any origin is no framing protection; a ` +
        `protocol-relative script on an HTTPS page loads over HTTPS); ${corpus}`;
    }
    rows.push(row);
  }
  const shared = new Set(testNames);
  let gradeSame = 0;
  let sharedGradeSame = 0;
  const differences: string[] = [];
  for (const v of verdicts) {
    const sharedScore = totalScore(
      v.ours.checks.filter((c) => shared.has(c.id)).map((c) => c.scoreModifier),
    );
    if (gradeOf(sharedScore) === v.theirs.grade) sharedGradeSame++;
    if (v.ours.grade === v.theirs.grade) {
      gradeSame++;
      continue;
    }
    const diff = v.ours.checks.filter((c) => {
      const t = v.theirs.tests.get(c.id);
      return t ? t.modifier !== c.scoreModifier : c.scoreModifier !== 0;
    }).map((c) => {
      const t = v.theirs.tests.get(c.id);
      return `${c.id} ${c.result} ${c.scoreModifier}` +
        (t ? ` vs ${t.result} ${t.modifier}` : " (our own row)");
    });
    differences.push(
      `${v.case.host} (${v.case.headers.name}; ${v.case.redirect.name}; ${v.case.cors.name}; ` +
        `page ${v.case.pageName}): ours ${v.ours.score} ${v.ours.grade}, Observatory ` +
        `${v.theirs.score} ${v.theirs.grade}: ${diff.join("; ")}`,
    );
  }
  rows.push(agreementRow("grade agreement (whole report)", gradeSame / n, corpus));
  rows.push(
    agreementRow(
      "grade agreement (the Observatory's ten tests only)",
      sharedGradeSame / n,
      `${corpus}; our score recomputed from the ten rows the Observatory also has`,
    ),
  );
  return { rows, differences };
}

/**
 * A difference the README documents as deliberate: CSP frame-ancestors that allows any origin
 * (`*`, or a bare scheme) earns the Observatory's +5 but protects nothing, so it is not
 * counted as framing protection here.
 */
function isDocumentedDifference(c: Case, test: string, ours: string, theirs: string): boolean {
  if (test === "subresource-integrity") {
    // A protocol-relative script on an HTTPS page loads over HTTPS; the Observatory flags it.
    return /loaded-securely$/.test(ours) && /not-loaded-securely$/.test(theirs) &&
      /<script[^>]+src\s*=\s*["']?\/\//i.test(c.page);
  }
  if (test !== "x-frame-options" || theirs !== "x-frame-options-implemented-via-csp") return false;
  const csp = c.headers.headers.find(([name]) => name === "content-security-policy")?.[1] ?? "";
  const sources = csp.match(/frame-ancestors([^;]*)/i)?.[1].trim().split(/\s+/) ?? [];
  return ours !== theirs && sources.some((s) => s === "*" || /^[a-z][a-z0-9+.-]*:$/i.test(s));
}

function agreementRow(measure: string, share: number, note: string): BenchRow {
  const percent = Math.round(share * 1000) / 10;
  return {
    measure,
    unit: "%",
    project: percent,
    baseline: null,
    ratio: share,
    target: `>= ${TARGET * 100}%`,
    pass: share >= TARGET,
    note,
  };
}

/** The benchmark's rows (see the module comment). */
export async function run(): Promise<BenchRow[]> {
  const { rows, differences } = await measure();
  for (const d of differences) console.error(`observatory: grades differ: ${d}`);
  return rows;
}

if (import.meta.main) {
  const { rows, differences } = await measure();
  console.log(formatTable(rows));
  console.log(`\n${differences.length} grade differences:`);
  for (const d of differences) console.log(`- ${d}`);
}
