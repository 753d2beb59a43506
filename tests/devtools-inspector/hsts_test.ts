/** Strict-Transport-Security values as browsers and the Observatory read them. */
import assert from "node:assert/strict";
import { parseHsts, preloadReady } from "../../functions/devtools-inspector/hsts.ts";

Deno.test("directives in any case and order, max-age possibly quoted", () => {
  assert.deepEqual(parseHsts('includeSubDomains; MAX-AGE="31536000"; preload'), {
    maxAge: 31_536_000,
    includeSubDomains: true,
    preload: true,
  });
  assert.deepEqual(parseHsts("max-age=0"), {
    maxAge: 0,
    includeSubDomains: false,
    preload: false,
  });
});

Deno.test("invalid: no max-age, a non-numeric one, a repeated directive, a repeated header", () => {
  for (
    const value of [
      null,
      "",
      "includeSubDomains",
      "max-age=1y",
      "max-age=-1",
      "max-age=10; max-age=20",
      "max-age=31536000, max-age=31536000",
    ]
  ) {
    assert.equal(parseHsts(value), null, String(value));
  }
});

Deno.test("preload-ready needs a year, includeSubDomains and preload", () => {
  const ready = (v: string) => preloadReady(parseHsts(v)!);
  assert.equal(ready("max-age=31536000; includeSubDomains; preload"), true);
  assert.equal(ready("max-age=31535999; includeSubDomains; preload"), false);
  assert.equal(ready("max-age=63072000; preload"), false);
  assert.equal(ready("max-age=63072000; includeSubDomains"), false);
});
