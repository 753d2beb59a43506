/**
 * Which HTML parser backs shared/net/html.ts: parse the largest real-world page of
 * `htmlparser-benchmark` and collect what the experiments need (every element's name and
 * attributes, the title text), with each candidate, side by side in one run.
 */
import { parseDocument } from "htmlparser2";
import { DOMParser } from "linkedom";
import { parse as parse5 } from "parse5";
import { parse as nodeHtmlParse } from "node-html-parser";
import { fileURLToPath } from "node:url";
import type { BenchRow } from "./harness.ts";

const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
const pages = [...Deno.readDirSync(dir)].map((e) => Deno.readTextFileSync(`${dir}/${e.name}`));
const largest = pages.reduce((a, b) => (a.length > b.length ? a : b));

type Candidate = { name: string; run: (html: string) => number };

// Each candidate parses the page and counts elements with a src/href, the work the extractors do.
const candidates: Candidate[] = [
  {
    name: "htmlparser2 (parseDocument)",
    run(html) {
      let n = 0;
      const walk = (nodes: { type: string; attribs?: Record<string, string>; children?: [] }[]) => {
        for (const node of nodes) {
          if (node.attribs && (node.attribs.src || node.attribs.href)) n++;
          if (node.children) walk(node.children);
        }
      };
      walk(parseDocument(html).children as never);
      return n;
    },
  },
  {
    name: "linkedom (DOMParser)",
    run(html) {
      const doc = new DOMParser().parseFromString(html, "text/html");
      return doc.querySelectorAll("[src],[href]").length;
    },
  },
  {
    name: "parse5",
    run(html) {
      let n = 0;
      // deno-lint-ignore no-explicit-any
      const walk = (node: any) => {
        if (node.attrs?.some((a: { name: string }) => a.name === "src" || a.name === "href")) n++;
        for (const child of node.childNodes ?? []) walk(child);
        if (node.content) walk(node.content);
      };
      walk(parse5(html));
      return n;
    },
  },
  {
    name: "node-html-parser",
    run(html) {
      return nodeHtmlParse(html).querySelectorAll("[src],[href]").length;
    },
  },
];

function measure(c: Candidate, html: string, iterations: number): number {
  for (let i = 0; i < 3; i++) c.run(html); // warm-up
  const start = performance.now();
  for (let i = 0; i < iterations; i++) c.run(html);
  return (performance.now() - start) / iterations;
}

/** What one parser measured. */
interface ParserResult {
  name: string;
  /** Elements with a src/href found on the largest page (all parsers should agree). */
  found: number;
  /** Mean ms per parse of the largest page (20 parses after 3 warm-up). */
  large: number;
  /** Total ms for one parse of every page of the corpus (each after 3 warm-up parses). */
  corpus: number;
}

/** Measures every candidate (the first, htmlparser2, is the one shared/net/html.ts uses). */
function measureAll(): ParserResult[] {
  return candidates.map((c) => ({
    name: c.name,
    found: c.run(largest),
    large: measure(c, largest, 20),
    corpus: pages.reduce((sum, page) => sum + measure(c, page, 1), 0),
  }));
}

/**
 * The benchmark's rows (harness contract): htmlparser2, the parser the project uses, against
 * each alternative on the largest page; the corpus total goes in the note.
 */
export function run(): Promise<BenchRow[]> {
  const [ours, ...others] = measureAll();
  const kib = (largest.length / 1024).toFixed(0);
  return Promise.resolve(others.map((other) => ({
    measure: `HTML parse + src/href walk, ${kib} KiB page: htmlparser2 (project) vs ${other.name}`,
    unit: "ms",
    project: ours.large,
    baseline: other.large,
    ratio: ours.large / other.large,
    target: "<= 1x",
    pass: ours.large <= other.large,
    note: `in-process, mean of 20 parses after 3 warm-up, largest page of htmlparser-benchmark; ` +
      `corpus of ${pages.length} pages: ${ours.corpus.toFixed(0)} ms vs ` +
      `${other.corpus.toFixed(0)} ms; elements found ${ours.found} vs ${other.found}`,
  })));
}

if (import.meta.main) {
  const rows = measureAll();
  const base = rows[0];
  console.log(
    `largest page: ${(largest.length / 1024).toFixed(0)} KiB; corpus: ${pages.length} pages`,
  );
  console.log(
    "parser | elements with src/href | ms per large page | ms for corpus | vs htmlparser2",
  );
  for (const r of rows) {
    console.log(
      `${r.name} | ${r.found} | ${r.large.toFixed(2)} | ${r.corpus.toFixed(0)} | ${
        (r.large / base.large).toFixed(2)
      }x`,
    );
  }
}
