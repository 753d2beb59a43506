import { fileURLToPath } from "node:url";
import { bodyOf, parseTree } from "../functions/ai-summary/tree.ts";
import { descendants, innerText } from "../functions/ai-summary/dom.ts";
const dir = fileURLToPath(import.meta.resolve("htmlparser-benchmark/files/"));
for (const prefix of Deno.args) {
  const name = [...Deno.readDirSync(dir)].map((e) => e.name).find((n) => n.startsWith(prefix))!;
  const doc = await parseTree(Deno.readTextFileSync(`${dir}/${name}`));
  const seen = Deno.readTextFileSync(`/tmp/lab/${prefix}.txt`).split("\n").map((l) => l.split("\t")[1] ?? "").join(" ").replace(/\s+/g, " ");
  for (const p of descendants(bodyOf(doc)!, new Set(["p"]))) {
    const t = innerText(p).replace(/\s+/g, " ").trim();
    if (t.length > 60 && !seen.includes(t.slice(0, 50))) console.log(prefix, "|", t.slice(0, 200));
  }
}
