/** Body sniffing and plain text of ai-summary's page_text.ts. */
import assert from "node:assert/strict";
import { bodyKind, plainText } from "../../functions/ai-summary/page_text.ts";

Deno.test("bodyKind: by content type, else by sniffing", () => {
  const bytes = (s: string) => new TextEncoder().encode(s);
  assert.equal(bodyKind("text/html", bytes("")), "html");
  assert.equal(bodyKind("application/xhtml+xml", bytes("")), "html");
  assert.equal(bodyKind("text/plain", bytes("")), "text");
  assert.equal(bodyKind("text/markdown", bytes("")), "text");
  assert.equal(bodyKind("application/json", bytes("{}")), "text");
  assert.equal(bodyKind("application/ld+json", bytes("{}")), "text");
  assert.equal(bodyKind("image/png", bytes("")), "binary");
  assert.equal(bodyKind("application/pdf", bytes("%PDF")), "binary");
  assert.equal(bodyKind(null, new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0, 0])), "binary");
  assert.equal(bodyKind(null, bytes("  <!DOCTYPE html><p>x")), "html");
  assert.equal(bodyKind(null, bytes("just words")), "text");
});

Deno.test("plainText: white space collapsed within lines, blank lines and BOM dropped", () => {
  assert.equal(plainText("\uFEFF  a   b \r\n\r\n\t c\n"), "a b\nc");
});
