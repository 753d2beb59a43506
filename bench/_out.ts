import { labelledPages } from "./reader.ts";
import { readPage } from "../functions/ai-summary/readable.ts";
const p = labelledPages().find((p) => p.name.startsWith(Deno.args[0]))!;
console.log((await readPage(p.html)).text);
