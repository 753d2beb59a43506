/** Token counting: exact on ordinary text, bounded on long runs, estimated past the budget. */
import assert from "node:assert/strict";
import { loadO200k } from "../../functions/repo-explainer/o200k.ts";
import {
  chunks,
  ESTIMATE_CHARS_PER_TOKEN,
  MAX_RUN,
  tokenCounter,
  tokenReport,
} from "../../functions/repo-explainer/tokens.ts";

const { count: countTokens } = await loadO200k();

Deno.test("tokens: ordinary source counts as the whole text does", async () => {
  const text = await Deno.readTextFile(
    new URL("../../functions/repo-explainer/manifests.ts", import.meta.url),
  );
  const counter = await tokenCounter(60_000);
  const counted = await counter.count(text);
  const whole = countTokens(text);
  // Chunks end at line ends: the split moves a count by at most a token per chunk.
  const pieces = [...chunks(text)].length;
  assert.ok(Math.abs(counted - whole) <= pieces, `${counted} vs ${whole} (${pieces} chunks)`);
  assert.equal(counter.exact, true);
});

Deno.test("tokens: special-token text counts as plain text", async () => {
  const counter = await tokenCounter(60_000);
  assert.ok(await counter.count("a <|endoftext|> b") > 3);
});

Deno.test("tokens: a long run is cut into MAX_RUN pieces, nothing lost", () => {
  const text = `short words\n${"x".repeat(MAX_RUN * 3 + 5)} tail\n`;
  const parts = [...chunks(text)];
  assert.equal(parts.join(""), text);
  assert.ok(parts.every((p) => !new RegExp(`\\S{${MAX_RUN + 1}}`).test(p)));
});

Deno.test("tokens: past the budget the rest is estimated and the counter says so", async () => {
  let now = 0;
  const counter = await tokenCounter(100, () => now);
  const first = await counter.count("hello world\n");
  assert.equal(first, countTokens("hello world\n"));
  assert.equal(counter.exact, true);
  now = 101;
  const text = "y".repeat(4000);
  assert.equal(await counter.count(text), Math.ceil(4000 / ESTIMATE_CHARS_PER_TOKEN));
  assert.equal(counter.exact, false);
});

Deno.test("tokens: directories sum what lies below them", () => {
  const report = tokenReport([
    { path: "src/b.ts", tokens: 5 },
    { path: "README.md", tokens: 2 },
    { path: "src/lib/a.ts", tokens: 3 },
  ], true);
  assert.equal(report.total, 10);
  assert.deepEqual(report.files.map((f) => f.path), ["README.md", "src/b.ts", "src/lib/a.ts"]);
  assert.deepEqual(report.directories, [
    { path: "src/", tokens: 8 },
    { path: "src/lib/", tokens: 3 },
  ]);
});
