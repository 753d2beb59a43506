/**
 * The README says what the code does: its error table is `ERROR_STATUS` (codes, statuses, and
 * which code nothing throws), a benchmark row quoted in an experiment's README has the figures
 * of the project README's latest run, and every `BENCH_*` variable the benchmarks read is
 * documented.
 */
import assert from "node:assert/strict";
import { ERROR_STATUS } from "../shared/contract/errors.ts";

const ROOT = new URL("../", import.meta.url);
const readme = await Deno.readTextFile(new URL("README.md", ROOT));

/** The cells of the Markdown table rows in `text` (header and separator rows left out). */
function tableRows(text: string): string[][] {
  const lines = text.split("\n");
  const separator = (line = "") => /^\|\s*:?-/.test(line);
  return lines
    .filter((line, i) => line.startsWith("|") && !separator(line) && !separator(lines[i + 1]))
    .map((line) => line.replace(/^\||\|$/g, "").split("|").map((cell) => cell.trim()));
}

/** The part of the README from `heading` to the next heading of the same or a higher level. */
function section(heading: string): string {
  const start = readme.indexOf(`${heading}\n`);
  assert.ok(start >= 0, `README has "${heading}"`);
  const level = heading.match(/^#+/)![0].length;
  const rest = readme.slice(start + heading.length);
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

Deno.test("README's error table is the code's ERROR_STATUS, unused codes marked", async () => {
  const rows = tableRows(section("### Errors")).filter((cells) => /^`[A-Z_]+`$/.test(cells[0]));
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
  const start = readme.indexOf("<!-- bench:start -->");
  const end = readme.indexOf("<!-- bench:end -->");
  assert.ok(start >= 0 && end > start, "README has the bench markers");
  const latest = new Map(tableRows(readme.slice(start, end)).map((cells) => [cells[0], cells]));
  assert.ok(latest.size > 10, "the latest run's table was read");
  const after = readme.slice(end);
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
      // A module measured again later may differ, if README.md says so below the run's table.
      if (JSON.stringify(cells) !== JSON.stringify(run) && remeasured.includes(`\`${path}\``)) {
        continue;
      }
      assert.deepEqual(cells, run, `${path}: "${cells[0]}" differs from README.md's latest run`);
    }
  }
  assert.ok(quoted > 0, "some experiment README quotes the run");
});

Deno.test("every BENCH_* variable the benchmarks read is documented in README", async () => {
  const bench = await sources("bench/");
  const read = /env\.get\("(BENCH_[A-Z_]+)"\)/g;
  const names = new Set([...bench.matchAll(read)].map((m) => m[1]));
  assert.ok(names.has("BENCH_QUICK"));
  for (const name of names) assert.ok(readme.includes(`\`${name}\``), `${name} in README.md`);
});
