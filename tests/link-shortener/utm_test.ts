/** UTM parameters on a target: other parameters kept byte for byte, values encoded. */
import assert from "node:assert/strict";
import { applyUtm, removeUtm, UTM_MESSAGE, utmOf } from "../../functions/link-shortener/utm.ts";
import { UtmInput } from "../../functions/link-shortener/schema.ts";

Deno.test("applyUtm sets the parameters, keeps the others and the fragment", () => {
  const url = applyUtm("https://example.com/p?q=hello%20world&utm_source=old&x=1#frag", {
    source: "news letter",
    campaign: "a&b=c",
  });
  assert.equal(
    url,
    "https://example.com/p?q=hello%20world&x=1&utm_source=news%20letter&utm_campaign=a%26b%3Dc#frag",
  );
  assert.equal(new URL(url).searchParams.get("utm_campaign"), "a&b=c");
  assert.equal(
    applyUtm("https://example.com/", { medium: "é" }),
    "https://example.com/?utm_medium=%C3%A9",
  );
});

Deno.test("removeUtm takes off only the pairs the link had set", () => {
  const utm = { source: "news", term: "x y" };
  const url = applyUtm("https://example.com/?a=1", utm);
  assert.equal(removeUtm(url, utm), "https://example.com/?a=1");
  assert.equal(
    removeUtm("https://example.com/?utm_source=other", utm),
    "https://example.com/?utm_source=other",
  );
});

Deno.test("UtmInput: known fields only, at least one, bounded strings", () => {
  assert.deepEqual(UtmInput.parse({ source: "a" }), { source: "a" });
  for (
    const bad of [{}, { sauce: "a" }, { source: "" }, { source: 1 }, "x", { term: "x".repeat(201) }]
  ) {
    const r = UtmInput.safeParse(bad);
    assert.equal(r.success, false, JSON.stringify(bad));
    assert.equal(r.error!.issues[0].message, UTM_MESSAGE);
  }
  assert.deepEqual(utmOf('{"source":"a"}'), { source: "a" });
  assert.equal(utmOf(null), null);
});
