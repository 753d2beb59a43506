/**
 * The documentation says what the code does: the error table of docs/contract.md is
 * `ERROR_STATUS` (codes, statuses, and which code nothing throws), a benchmark row quoted in an
 * experiment's README has the figures of bench/README.md's latest run, and every `BENCH_*`
 * variable the benchmarks read is documented in bench/README.md.
 */
import assert from "node:assert/strict";
import { ERROR_STATUS } from "../shared/contract/errors.ts";

const ROOT = new URL("../", import.meta.url);
const contract = await Deno.readTextFile(new URL("docs/contract.md", ROOT));
const benchReadme = await Deno.readTextFile(new URL("bench/README.md", ROOT));

/** The cells of the Markdown table rows in `text` (header and separator rows left out). */
function tableRows(text: string): string[][] {
  const lines = text.split("\n");
  const separator = (line = "") => /^\|\s*:?-/.test(line);
  return lines
    .filter((line, i) => line.startsWith("|") && !separator(line) && !separator(lines[i + 1]))
    .map((line) => line.replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim()));
}

/** The part of `text` from `heading` to the next heading of the same or a higher level. */
function section(text: string, heading: string): string {
  const start = text.indexOf(`${heading}\n`);
  assert.ok(start >= 0, `the document has "${heading}"`);
  const level = heading.match(/^#+/)![0].length;
  const rest = text.slice(start + heading.length);
  const next = rest.search(new RegExp(`\\n#{1,${level}} `));
  return next < 0 ? rest : rest.slice(0, next);
}

/** Every .ts source under `dir`, joined (for "is this code used anywhere"). */
async function sources(dir: string): Promise<string> {
  const out: string[] = [];
  const visit = async (url: URL) => {
    for await (const e of Deno.readDir(url)) {
      if (e.isDirectory && e.name !== "node_modules" && e.name !== "results") {
        await visit(new URL(`${e.name}/`, url));
      } else if (e.isFile && e.name.endsWith(".ts")) {
        out.push(await Deno.readTextFile(new URL(e.name, url)));
      }
    }
  };
  await visit(new URL(dir, ROOT));
  return out.join("\n");
}

Deno.test("docs/contract.md's error table is the code's ERROR_STATUS, unused codes marked", async () => {
  const rows = tableRows(section(contract, "## Errors")).filter((cells) =>
    /^`[A-Z_]+`$/.test(cells[0])
  );
  const listed = Object.fromEntries(
    rows.map((cells) => [cells[0].slice(1, -1), Number(cells[1].match(/^\d{3}/)?.[0])]),
  );
  assert.deepEqual(listed, ERROR_STATUS);

  // A code that no module throws is marked "unused"; a code marked so is indeed thrown nowhere.
  const errors = await Deno.readTextFile(new URL("shared/contract/errors.ts", ROOT));
  const code = (await sources("functions/")) + (await sources("shared/"))
    .replace(errors, "");
  for (const cells of rows) {
    const name = cells[0].slice(1, -1);
    const thrown = code.includes(`"${name}"`);
    const markedUnused = /\bunused\b/.test(cells[2]);
    assert.equal(markedUnused, !thrown, `${name}: thrown=${thrown}, marked unused=${markedUnused}`);
  }
});

Deno.test("a benchmark row quoted in an experiment's README equals the latest run's", async () => {
  const start = benchReadme.indexOf("<!-- bench:start -->");
  const end = benchReadme.indexOf("<!-- bench:end -->");
  assert.ok(start >= 0 && end > start, "bench/README.md has the bench markers");
  const latest = new Map(
    tableRows(benchReadme.slice(start, end)).map((cells) => [cells[0], cells]),
  );
  assert.ok(latest.size > 10, "the latest run's table was read");
  const after = benchReadme.slice(end);
  const remeasured = after.slice(0, after.indexOf("\n\n", after.indexOf("Measured again since")));
  let quoted = 0;
  for await (const entry of Deno.readDir(new URL("functions/", ROOT))) {
    if (!entry.isDirectory) continue;
    const path = `functions/${entry.name}/README.md`;
    const text = await Deno.readTextFile(new URL(path, ROOT)).catch(() => "");
    for (const cells of tableRows(text)) {
      const run = latest.get(cells[0]);
      if (!run) continue;
      quoted++;
      // A module measured again later may differ, if bench/README.md says so below the table.
      if (JSON.stringify(cells) !== JSON.stringify(run) && remeasured.includes(`\`${path}\``)) {
        continue;
      }
      assert.deepEqual(
        cells,
        run,
        `${path}: "${cells[0]}" differs from bench/README.md's latest run`,
      );
    }
  }
  assert.ok(quoted > 0, "some experiment README quotes the run");
});

Deno.test("every BENCH_* variable the benchmarks read is documented in bench/README.md", async () => {
  const bench = await sources("bench/");
  const read = /env\.get\("(BENCH_[A-Z_]+)"\)/g;
  const names = new Set([...bench.matchAll(read)].map((m) => m[1]));
  assert.ok(names.has("BENCH_QUICK"));
  for (const name of names) {
    assert.ok(benchReadme.includes(`\`${name}\``), `${name} in bench/README.md`);
  }
});

Deno.test("README.md is a short guide; links in the docs stay inside the repository", async () => {
  const readme = await Deno.readTextFile(new URL("README.md", ROOT));
  assert.ok(readme.split("\n").length <= 150, "README.md has at most 150 lines");
  const docs = [...Deno.readDirSync(new URL("docs/", ROOT))].map((e) => `docs/${e.name}`);
  const experiments = [...Deno.readDirSync(new URL("functions/", ROOT))]
    .filter((e) => e.isDirectory).map((e) => `functions/${e.name}/README.md`);
  for (const path of ["README.md", "bench/README.md", "ARCHITECTURE.md", ...docs, ...experiments]) {
    const text = await Deno.readTextFile(new URL(path, ROOT));
    const links = [...text.matchAll(/\]\(([^)#\s]+)(#[^)]*)?\)/g)].map((m) => m[1]);
    for (const link of links.filter((l) => !/^[a-z]+:/.test(l))) {
      const target = new URL(link, new URL(path, ROOT));
      assert.ok(
        target.href.startsWith(ROOT.href),
        `${path}: ${link} points outside the repository`,
      );
      await Deno.stat(target).catch(() => assert.fail(`${path}: ${link} does not exist`));
    }
  }
});

/** The sections every experiment's README has, in this order. */
const OUTLINE = [
  "What it does",
  "Routes and examples",
  "Options and errors",
  "Configuration",
  "Limits and security",
  "How it works",
  "Tests",
];

Deno.test("every experiment's README follows the one outline", async () => {
  for await (const entry of Deno.readDir(new URL("functions/", ROOT))) {
    if (!entry.isDirectory) continue;
    const text = await Deno.readTextFile(new URL(`functions/${entry.name}/README.md`, ROOT));
    const headings = text.replace(/^```[\s\S]*?^```/gm, "").split("\n")
      .filter((line) => line.startsWith("## ")).map((line) => line.slice(3).trim());
    assert.deepEqual(headings, OUTLINE, `functions/${entry.name}/README.md`);
  }
});
