/**
 * functions/repo-explainer/o200k_base.json is what bench/o200k/build.ts builds from the pinned
 * `gpt-tokenizer`, and repo-explainer's counter (o200k.ts) counts as `gpt-tokenizer` does:
 * that package is in bench/ only (`deno task test:bench`), which the services never load.
 */
import assert from "node:assert/strict";
import { countTokens } from "gpt-tokenizer/encoding/o200k_base";
import { buildO200kData, DATA_FILE } from "./o200k/build.ts";
import { loadO200k } from "../functions/repo-explainer/o200k.ts";
import { chunks } from "../functions/repo-explainer/tokens.ts";

const ROOT = new URL("../", import.meta.url);
const options = { disallowedSpecial: new Set<string>() };

Deno.test("o200k_base.json is what bench/o200k/build.ts builds from the package", async () => {
  assert.ok(
    await Deno.readTextFile(DATA_FILE) === buildO200kData(),
    "stale: deno task build:o200k",
  );
});

Deno.test("o200k: hard cases count as gpt-tokenizer counts them", async () => {
  const { count } = await loadO200k();
  const cases = [
    "",
    "<|endoftext|><|endofprompt|> special names as text",
    "I'm they'RE we'Ve DON'T it's",
    "x = 1234567890; y=0.5e-10\r\n\r\n\t\t  \n",
    "naïve café — “quotes” … ½ ©",
    "日本語のテキストと中文文本，한국어 텍스트",
    "العربية עברית हिन्दी ไทย Ελληνικά Русский",
    "👋🏽👨‍👩‍👧‍👦🏳️‍🌈 \u{10FFFF}\u0000\u0001\u007f",
    "\uD800 lone surrogate \uDFFF",
    "a".repeat(256) + " " + "ab".repeat(128) + " " + "é".repeat(256),
    "QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=".repeat(7),
    "    indented\n\n\n   \n  ",
    "snake_case camelCase PascalCase kebab-case SCREAMING_CASE",
    "https://example.com/path?q=1&r=%20#frag",
  ];
  for (const text of cases) assert.equal(count(text), countTokens(text, options), text);
});

Deno.test("o200k: this repository's sources count as gpt-tokenizer counts them", async () => {
  const { count } = await loadO200k();
  let files = 0;
  let tokens = 0;
  for (const dir of ["functions/repo-explainer", "shared/net", "docs", "bench"]) {
    for await (const e of Deno.readDir(new URL(`${dir}/`, ROOT))) {
      if (!e.isFile || !/\.(ts|md)$/.test(e.name)) continue;
      const text = await Deno.readTextFile(new URL(`${dir}/${e.name}`, ROOT));
      // In the service's chunks (pieces of a bounded length), as tokens.ts counts.
      for (const chunk of chunks(text)) {
        const expected = countTokens(chunk, options);
        assert.equal(count(chunk), expected, `${dir}/${e.name}`);
        tokens += expected;
      }
      files++;
    }
  }
  assert.ok(files > 20 && tokens > 50_000, `${files} files, ${tokens} tokens`);
});
