/** Transfer compression: the ratio, and advice only where it would help. */
import assert from "node:assert/strict";
import { describeCompression } from "../../functions/devtools-inspector/compression.ts";

Deno.test("a compressed body reports its ratio and needs no advice", () => {
  assert.deepEqual(describeCompression(" GZIP ", 1996, 6280, "html"), {
    contentEncoding: "gzip",
    encodedBytes: 1996,
    decodedBytes: 6280,
    ratio: 0.318,
    advice: null,
  });
});

Deno.test("uncompressed text of 1 KiB or more is worth compressing; small or binary is not", () => {
  assert.equal(
    describeCompression(null, 4096, 4096, "json").advice,
    "4096 bytes of text sent uncompressed: enable gzip or br",
  );
  assert.equal(describeCompression("identity", 2048, 2048, "text").advice !== null, true);
  assert.equal(describeCompression(null, 1023, 1023, "html").advice, null);
  assert.equal(describeCompression(null, 90_000, 90_000, "image").advice, null);
  assert.equal(describeCompression(null, 90_000, 90_000, "binary").advice, null);
});

Deno.test("compression that grew the body is flagged; an empty body has no ratio", () => {
  assert.equal(
    describeCompression("br", 120, 100, "html").advice,
    "br did not shrink this body: skip compression for it",
  );
  assert.deepEqual(describeCompression(null, 0, 0, "empty"), {
    contentEncoding: null,
    encodedBytes: 0,
    decodedBytes: 0,
    ratio: null,
    advice: null,
  });
});
