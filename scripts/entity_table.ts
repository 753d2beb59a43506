/**
 * The HTML entity table, decoded at build time. `entities` (the decoder of htmlparser2 and
 * parse5, so of every page route) ships its entity trie packed in a string and unpacks it
 * with a JavaScript loop when it is imported: 5-7 ms of a new instance's first page, run before
 * V8 has compiled that loop (a fresh process importing entities/decode: ~6 ms; with the table
 * inlined: ~0.8 ms). The build unpacks it once and puts the table in its place as base64,
 * which `Uint8Array.fromBase64` decodes natively.
 */
import { htmlDecodeTree } from "entities/decode";

/** Where entities keeps the packed trie (its `decodeTrieDict("…", n, n, n, n, n)` call). */
const PACKED_SOURCE = new URL(
  "./generated/decode-data-html.js",
  import.meta.resolve("entities/decode"),
);

/** The packed string: the first string argument of the source's one `decodeTrieDict` call. */
async function packedTrie(): Promise<string> {
  const source = await Deno.readTextFile(PACKED_SOURCE);
  const m = source.match(/decodeTrieDict\("([^"\\]*)"/);
  if (!m) throw new Error(`build: no packed entity trie in ${PACKED_SOURCE.pathname}`);
  return m[1];
}

/**
 * An expression that makes `htmlDecodeTree` natively. Its bytes are this machine's order, as a
 * Uint16Array over them reads them: little-endian, as on every machine Deno runs on.
 */
function tableExpression(): string {
  const bytes = new Uint8Array(
    htmlDecodeTree.buffer,
    htmlDecodeTree.byteOffset,
    htmlDecodeTree.byteLength,
  );
  return `new Uint16Array(Uint8Array.fromBase64("${bytes.toBase64()}").buffer)`;
}

/**
 * Returns a function that replaces, in a bundle file, the call unpacking the entity trie with
 * the decoded table. A file without the packed string is returned unchanged; one that holds it
 * in any other shape is an error (an `entities` upgrade changed it: the build must say so).
 */
export async function entityTableInliner(): Promise<(code: string) => string> {
  const packed = await packedTrie();
  const expression = tableExpression();
  // The bundler renames the function and may change the quotes; the string has no quote,
  // backslash or `$` to escape (its alphabet leaves them out).
  const call = new RegExp(
    `[A-Za-z_$][\\w$]*\\((["'\`])${RegExp.escape(packed)}\\1(?:,\\d+){5}\\)`,
    "g",
  );
  return (code) => {
    if (!code.includes(packed)) return code;
    const inlined = code.replace(call, expression);
    if (inlined.includes(packed)) {
      throw new Error("build: the packed entity trie is in a bundle file in an unknown form");
    }
    return inlined;
  };
}
