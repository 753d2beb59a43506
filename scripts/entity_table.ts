/**
 * The HTML entity tables, decoded at build time. `entities` (the decoder of htmlparser2 and
 * parse5, so of every page route) ships its HTML entity data packed in strings and unpacks it
 * with JavaScript loops when it is imported, before V8 has compiled them:
 * - `entities` 8 (htmlparser2: /analyze, /inspect, /metadata) unpacks a trie: 5-7 ms of a new
 *   instance's first page (a fresh process importing entities/decode: ~6 ms; with the table
 *   inlined: ~0.8 ms);
 * - `entities` 9 (parse5: /summary, /read) builds hash tables (`initDecodeData`): 7-10 ms.
 * The build unpacks both once and puts the tables in their place as base64, which
 * `Uint8Array.fromBase64` decodes natively.
 */
import { htmlDecodeTree } from "entities/decode";

/** `entities` 9, parse5's (the project imports 8 by name; 9 is found beside parse5). */
const ENTITIES_9 = new URL("../../entities/dist/", import.meta.resolve("parse5"));

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
 * An expression that makes `array` natively. Its bytes are this machine's order, as a typed
 * array over them reads them: little-endian, as on every machine Deno runs on.
 */
function typedExpression(array: Int32Array | Uint16Array | Uint32Array): string {
  const bytes = new Uint8Array(array.buffer, array.byteOffset, array.byteLength);
  return `new ${array.constructor.name}(Uint8Array.fromBase64("${bytes.toBase64()}").buffer)`;
}

/** What `initDecodeData` of `entities` 9 makes of its HTML data. */
export interface DecodeData9 {
  keys: Int32Array;
  buckets: number;
  slotMidOff: Uint16Array;
  slotValue: Uint16Array;
  values: string;
  lengthBits: Uint32Array;
  middles: Uint32Array;
}

/** `entities` 9's HTML decode tables, made by its own `initDecodeData`. */
export async function decodeData9(): Promise<DecodeData9> {
  const version = JSON.parse(await Deno.readTextFile(new URL("../package.json", ENTITIES_9)));
  if (!/^9\./.test(version.version)) {
    throw new Error(`build: parse5's entities is ${version.version}`);
  }
  const format = await import(new URL("internal/decode-data-format.js", ENTITIES_9).href);
  const data = await import(new URL("generated/decode-data-html.js", ENTITIES_9).href);
  return format.initDecodeData(data.htmlDecodeData);
}

/**
 * Replaces, in a bundle file, `entities` 9's one call of `initDecodeData` on its packed data
 * with the tables it makes. The bundle keeps function names (`i(f,"initDecodeData")`), which
 * is how the call is found; the packed array stays (the tables' `values` is its second
 * string). A file that names the function but has not exactly one such call is an error.
 */
function decodeDataInliner(tables: DecodeData9): (code: string) => string {
  return (code) => {
    const named = code.match(/\(([A-Za-z_$][\w$]*),"initDecodeData"\)/);
    if (!named) return code;
    // The call, not the declaration `function f(e){`.
    const call = new RegExp(
      `(?<![\\w$.])${RegExp.escape(named[1])}\\(([A-Za-z_$][\\w$]*)\\)(?!\\{)`,
      "g",
    );
    const calls = [...code.matchAll(call)];
    if (calls.length !== 1) {
      throw new Error(`build: ${calls.length} calls of entities' initDecodeData in a bundle file`);
    }
    const packed = calls[0][1];
    const expression = `{keys:${typedExpression(tables.keys)},buckets:${tables.buckets},` +
      `slotMidOff:${typedExpression(tables.slotMidOff)},` +
      `slotValue:${typedExpression(tables.slotValue)},values:${packed}[1],` +
      `lengthBits:${typedExpression(tables.lengthBits)},` +
      `middles:${typedExpression(tables.middles)}}`;
    return code.replace(call, () => expression);
  };
}

/**
 * Returns a function that replaces, in a bundle file, the calls unpacking the entity tables
 * with the decoded tables. A file without them is returned unchanged; one that holds them in
 * any other shape is an error (an `entities` upgrade changed it: the build must say so).
 */
export async function entityTableInliner(): Promise<(code: string) => string> {
  const inlineDecodeData = decodeDataInliner(await decodeData9());
  const packed = await packedTrie();
  const expression = typedExpression(htmlDecodeTree);
  // The bundler renames the function and may change the quotes; the string has no quote,
  // backslash or `$` to escape (its alphabet leaves them out).
  const call = new RegExp(
    `[A-Za-z_$][\\w$]*\\((["'\`])${RegExp.escape(packed)}\\1(?:,\\d+){5}\\)`,
    "g",
  );
  return (code) => {
    code = inlineDecodeData(code);
    if (!code.includes(packed)) return code;
    const inlined = code.replace(call, expression);
    if (inlined.includes(packed)) {
      throw new Error("build: the packed entity trie is in a bundle file in an unknown form");
    }
    return inlined;
  };
}
