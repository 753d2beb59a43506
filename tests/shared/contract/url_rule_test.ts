import assert from "node:assert/strict";
import { parseUrlInput } from "../../../shared/contract/url_rule.ts";

Deno.test("URL input rule: invalid values", () => {
  for (
    const value of [
      undefined,
      null,
      "",
      "   ",
      "not a url",
      "ftp://x",
      "javascript:alert(1)",
      "http://",
      "https://",
      "//example.com",
      "/relative",
      "data:text/html,hi",
      "file:///etc/passwd",
      42,
    ]
  ) {
    assert.equal(parseUrlInput(value), null, `${JSON.stringify(value)} must be invalid`);
  }
});

Deno.test("URL input rule: valid values are normalised", () => {
  assert.equal(parseUrlInput("https://Example.COM"), "https://example.com/");
  assert.equal(parseUrlInput("HTTP://example.com:80/a/../b?x=1#f"), "http://example.com/b?x=1#f");
  assert.equal(parseUrlInput("  https://example.com/path  "), "https://example.com/path");
  assert.equal(parseUrlInput("https://bücher.de/"), "https://xn--bcher-kva.de/");
});
