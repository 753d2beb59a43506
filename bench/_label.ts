// Prints, for a corpus page, the reader's blocks and Readability's blocks (marking which has each), for hand labelling.
import { readabilityBlocks } from "./reader.ts";
import { readPage } from "../functions/ai-summary/readable.ts";
import { fileURLToPath } from "node:url";
const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
for (const prefix of Deno.args) {
  const name = [...Deno.readDirSync(dir)].map((e) => e.name).find((n) => n.startsWith(prefix))!;
  const html = Deno.readTextFileSync(`${dir}/${name}`);
  const ours = (await readPage(html)).text.split("\n");
  const theirs = (await readabilityBlocks(html)).split("\n");
  const oset = new Set(ours), tset = new Set(theirs);
  const out: string[] = [];
  for (const l of ours) out.push(`${tset.has(l) ? "B" : "O"}\t${l}`);
  for (const l of theirs) if (!oset.has(l)) out.push(`R\t${l}`);
  Deno.writeTextFileSync(`/tmp/lab/${prefix}.txt`, out.join("\n") + "\n");
  console.log(prefix, name.slice(0,16), ours.length, theirs.length, theirs.filter((l) => !oset.has(l)).length);
}
