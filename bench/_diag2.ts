import { labelledPages } from "./reader.ts";
import { extractArticle } from "../functions/ai-summary/readable.ts";
import { parseTree } from "../functions/ai-summary/tree.ts";
import { descendants, innerText, isElement } from "../functions/ai-summary/dom.ts";
import { BLOCKS } from "../shared/net/html.ts";
import { shingles } from "./extraction_score.ts";
import type { Element } from "domhandler";
const which = Deno.args[0];
const all = Deno.args[1] === "all";
const pages = labelledPages().filter((p) => which === "tuning" ? !p.heldOut : which === "held" ? p.heldOut : p.name.startsWith(which));
const A = new Set(["a"]);
for (const p of pages) {
  const { article } = extractArticle(await parseTree(p.html));
  if (!article) continue;
  const want = shingles(p.expected);
  console.log(`=== ${p.name.slice(0, 8)} ${p.site}`);
  const leaves = descendants(article).filter((el) => BLOCKS.has(el.name) && !descendants(el).some((d) => d !== el && BLOCKS.has(d.name)));
  for (const [i, el] of leaves.entries()) {
    const t = innerText(el).replace(/\s+/g, " ").trim();
    if (!t) continue;
    const sh = shingles(t);
    let n = 0, hit = 0;
    for (const [k, c] of sh) { n += c; hit += Math.min(c, want.get(k) ?? 0); }
    const fp = n > 0 && hit / n < 0.5;
    if (!fp && !all) continue;
    let links = 0;
    for (const a of descendants(el, A)) links += innerText(a).replace(/\s+/g, " ").trim().length;
    const path: string[] = [];
    for (let e: Element | null = el; e && e !== article; e = e.parent && isElement(e.parent) ? e.parent as Element : null) {
      path.unshift(`${e.name}${e.attribs.class ? "." + e.attribs.class.trim().replace(/\s+/g, ".") : ""}${e.attribs.id ? "#" + e.attribs.id : ""}`);
    }
    console.log(`${fp ? "FP" : "  "} ${i}/${leaves.length} ld=${(links / t.length).toFixed(2)} ${path.join(">").slice(-140)} | ${t.slice(0, 90)}`);
  }
}
