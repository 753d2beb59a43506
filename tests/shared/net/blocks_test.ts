import assert from "node:assert/strict";
import { BLOCKS } from "../../../shared/net/blocks.ts";
import { BLOCKS as FROM_HTML, parseHtml, readableText } from "../../../shared/net/html.ts";

Deno.test("BLOCKS: line-breaking elements, not inline ones; html.ts gives the same set", () => {
  for (const name of ["p", "div", "li", "h2", "br", "td"]) assert.ok(BLOCKS.has(name), name);
  for (const name of ["span", "a", "em", "b", "img"]) assert.ok(!BLOCKS.has(name), name);
  assert.equal(FROM_HTML, BLOCKS);
});

Deno.test("BLOCKS: html.ts's readable text keeps blocks apart and inline elements joined", () => {
  assert.equal(
    readableText(parseHtml("<body><div>one</div><div>two<b>three</b></div></body>")),
    "one twothree",
  );
});
