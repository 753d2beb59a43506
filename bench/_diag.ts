import { labelledPages, readabilityBlocks } from "./reader.ts";
import { readPage } from "../functions/ai-summary/readable.ts";
import { shingles, shingleScore } from "./extraction_score.ts";
const which = Deno.args[0] ?? "tuning"; // tuning | held | all | name prefix
const pages = labelledPages().filter((p) =>
  which === "all" ? true : which === "held" ? p.heldOut : which === "tuning" ? !p.heldOut : p.name.startsWith(which)
);
for (const p of pages) {
  const out = (await readPage(p.html)).text;
  const s = shingleScore(out, p.expected);
  const want = shingles(p.expected);
  console.log(`\n=== ${p.name.slice(0, 16)} ${p.site} P ${s.precision.toFixed(3)} R ${s.recall.toFixed(3)}`);
  for (const line of out.split("\n")) {
    const sh = shingles(line);
    let n = 0, hit = 0;
    for (const [k, c] of sh) { n += c; hit += Math.min(c, want.get(k) ?? 0); }
    if (n > 0 && hit / n < 0.5) console.log(`  FP(${n}) ${line.slice(0, 160)}`);
  }
  if (Deno.args[1] === "miss") {
    const got = shingles(out);
    for (const line of p.expected.split("\n")) {
      const sh = shingles(line);
      let n = 0, hit = 0;
      for (const [k, c] of sh) { n += c; hit += Math.min(c, got.get(k) ?? 0); }
      if (n > 0 && hit / n < 0.5) console.log(`  MISS(${n}) ${line.slice(0, 160)}`);
    }
  }
}
