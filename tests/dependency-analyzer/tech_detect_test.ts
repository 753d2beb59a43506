/** The engine over a small rule table: signals, confidence, implies, excludes, requires. */
import assert from "node:assert/strict";
import { compileTechRules } from "../../functions/dependency-analyzer/tech_rules.ts";
import {
  detectTechnologies,
  type PageSignals,
} from "../../functions/dependency-analyzer/tech_detect.ts";

const CATEGORIES = { "1": { name: "CMS" }, "2": { name: "Plugins" }, "3": { name: "Languages" } };
const RULES = compileTechRules({
  "Acme CMS": {
    cats: [1],
    meta: { generator: "^Acme ([\\d.]+)\\;version:\\1" },
    headers: { "X-Powered-By": "acme" },
    implies: ["Lang\\;confidence:50"],
  },
  "Lang": { cats: [3] },
  "Acme Plugin": { cats: [2], scriptSrc: "/acme-plugin\\.js", requires: ["Acme CMS"] },
  "Legacy": { cats: [1], html: "<!-- legacy -->", excludes: ["Acme CMS"] },
  "Tracker": {
    cats: [2],
    scripts: "tracker\\.init\\(",
    cookies: { "_trk": "" },
    html: "<div[^>]+data-tracker-id",
  },
}, CATEGORIES);

function page(overrides: Partial<PageSignals>): PageSignals {
  return {
    url: "https://x.test/",
    html: "",
    scriptSrc: [],
    scripts: [],
    css: [],
    meta: new Map(),
    headers: new Map(),
    cookies: new Map(),
    ...overrides,
  };
}

Deno.test("meta and headers detect, with version, categories, evidence; implies follow", async () => {
  const found = await detectTechnologies(
    RULES,
    page({
      meta: new Map([["generator", ["Acme 2.1"]]]),
      headers: new Map([["x-powered-by", ["Acme"]]]),
    }),
  );
  const acme = found.find((t) => t.name === "Acme CMS")!;
  assert.equal(acme.version, "2.1");
  assert.deepEqual(acme.categories, ["CMS"]);
  assert.deepEqual(acme.evidence.map((e) => e.source), ["meta:generator", "headers:x-powered-by"]);
  const lang = found.find((t) => t.name === "Lang")!;
  assert.equal(lang.confidence, 50);
  assert.deepEqual(lang.evidence, [{ rule: "implied", source: "implies", value: "Acme CMS" }]);
});

Deno.test("requires: a technology counts only next to what it requires", async () => {
  const alone = await detectTechnologies(
    RULES,
    page({ scriptSrc: ["https://x.test/acme-plugin.js"] }),
  );
  assert.deepEqual(alone.map((t) => t.name), []);
  const together = await detectTechnologies(
    RULES,
    page({
      scriptSrc: ["https://x.test/acme-plugin.js"],
      meta: new Map([["generator", ["Acme 2"]]]),
    }),
  );
  assert.ok(together.some((t) => t.name === "Acme Plugin"));
});

Deno.test("excludes remove, and html, inline scripts and cookies are read", async () => {
  const found = await detectTechnologies(
    RULES,
    page({
      html: '<!-- legacy --><div class="x" data-tracker-id="1"></div>',
      meta: new Map([["generator", ["Acme 2"]]]),
      scripts: ["tracker.init({})"],
      cookies: new Map([["_trk", ["1"]]]),
    }),
  );
  assert.deepEqual(found.map((t) => t.name).sort(), ["Legacy", "Tracker"]);
  const tracker = found.find((t) => t.name === "Tracker")!;
  assert.deepEqual(tracker.evidence.map((e) => e.source).sort(), [
    "cookies:_trk",
    "html",
    "scripts",
  ]);
  assert.equal(tracker.confidence, 100, "summed, at most 100");
});

Deno.test("a long page is matched near its literals, far occurrences included", async () => {
  const filler = "<p>filler text</p>".repeat(20_000);
  const found = await detectTechnologies(
    RULES,
    page({ html: `${filler}<div id="a" data-tracker-id="9"></div>${filler}` }),
  );
  assert.deepEqual(found.map((t) => t.name), ["Tracker"]);
  assert.equal(found[0].evidence[0].value, '<div id="a" data-tracker-id');
});
