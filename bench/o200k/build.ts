/**
 * Builds functions/repo-explainer/o200k_base.json, the `o200k_base` rank table repo-explainer
 * counts tokens with, from the table `gpt-tokenizer` ships (a package of bench/ only: it ships
 * every OpenAI encoding in several module formats, 29 MiB installed, where the service needs
 * one table of 1.6 MB). `deno task build:o200k`; bench/o200k_test.ts (`deno task test:bench`)
 * fails while the file is stale and checks the counts against `gpt-tokenizer`'s.
 *
 * The file holds the token byte strings in rank order (ranks run 0..n-1 without a gap), each
 * as one length byte and its bytes, base64 in a JSON string: a JSON module, so the deploy
 * bundle carries it and the service reads no file.
 */
import bpe from "gpt-tokenizer/bpeRanks/o200k_base";
import denoJson from "../deno.json" with { type: "json" };

/** Where the data file lives. */
export const DATA_FILE = new URL(
  "../../functions/repo-explainer/o200k_base.json",
  import.meta.url,
);

/** The data file's text, built from the installed `gpt-tokenizer`. */
export function buildO200kData(): string {
  const utf8 = new TextEncoder();
  const parts: Uint8Array[] = [];
  let size = 0;
  for (const token of bpe as (string | number[])[]) {
    // Tokens that are not whole UTF-8 sequences are kept as byte arrays.
    const bytes = typeof token === "string" ? utf8.encode(token) : Uint8Array.from(token);
    if (bytes.length === 0 || bytes.length > 255) throw new Error(`token of ${bytes.length} bytes`);
    const entry = new Uint8Array(bytes.length + 1);
    entry[0] = bytes.length;
    entry.set(bytes, 1);
    parts.push(entry);
    size += entry.length;
  }
  const all = new Uint8Array(size);
  let at = 0;
  for (const p of parts) {
    all.set(p, at);
    at += p.length;
  }
  const data = {
    encoding: "o200k_base",
    source: `${denoJson.imports["gpt-tokenizer"]} (bpeRanks/o200k_base, MIT)`,
    tokens: parts.length,
    ranks: all.toBase64(),
  };
  return JSON.stringify(data, null, 1) + "\n";
}

if (import.meta.main) {
  const text = buildO200kData();
  await Deno.writeTextFile(DATA_FILE, text);
  console.log(`wrote ${DATA_FILE.pathname} (${(text.length / 1024).toFixed(0)} KiB)`);
}
