/** The detection engine: folding evidence, implied libraries, fallbacks, aliases. */
import assert from "node:assert/strict";
import {
  canonicalName,
  detectLibraries,
  htmlRuleLiterals,
  identifyUrl,
  selectorMatcher,
} from "../../functions/dependency-analyzer/detect.ts";
import { RULES } from "../../functions/dependency-analyzer/rules.ts";
import { loadTechRules } from "../../functions/dependency-analyzer/tech_rules.ts";
import { type Element, parseHtml, selectFirst, walk } from "../../shared/net/html.ts";

Deno.test("a CDN URL and its versioned file name fold into one library with both rules", async () => {
  const libs = await detectLibraries({ urls: ["https://code.jquery.com/jquery-3.7.1.min.js"] });
  assert.deepEqual(libs, [{
    name: "jquery",
    version: "3.7.1",
    confidence: 100,
    evidence: [
      {
        rule: "cdn-code-jquery",
        source: "url",
        value: "https://code.jquery.com/jquery-3.7.1.min.js",
      },
      {
        rule: "versioned-file-name",
        source: "url",
        value: "https://code.jquery.com/jquery-3.7.1.min.js",
      },
    ],
  }]);
});

Deno.test("two versions of one library are two entries; versionless evidence joins the first", async () => {
  const libs = await detectLibraries({
    urls: [
      "https://cdn.jsdelivr.net/npm/vue@3.4.5/dist/vue.global.js",
      "https://unpkg.com/vue@2.7.16/dist/vue.js",
    ],
    doc: parseHtml('<div id="app" data-v-app></div>'),
  });
  assert.deepEqual(libs.map((l) => [l.name, l.version, l.evidence.map((e) => e.rule)]), [
    ["vue", "2.7.16", ["cdn-unpkg"]],
    ["vue", "3.4.5", ["cdn-jsdelivr-npm", "vue-app-attr"]],
  ]);
});

Deno.test("a rule reports only its first match as evidence", async () => {
  const libs = await detectLibraries({
    urls: ["https://x.test/_next/static/a.js", "https://x.test/_next/static/b.js"],
  });
  const next = libs.find((l) => l.name === "next")!;
  assert.deepEqual(next.evidence, [
    { rule: "nextjs-static-path", source: "url", value: "https://x.test/_next/static/a.js" },
  ]);
  assert.equal(next.confidence, 75);
});

Deno.test("implied libraries inherit the implying library's confidence", async () => {
  const libs = await detectLibraries({
    urls: [],
    html: "<script>window.__remixContext = {};</script>",
  });
  assert.deepEqual(libs, [
    {
      name: "@remix-run/react",
      version: null,
      confidence: 100,
      evidence: [{ rule: "remix-context", source: "html", value: "window.__remixContext" }],
    },
    {
      name: "react",
      version: null,
      confidence: 100,
      evidence: [{ rule: "implied", source: "implies", value: "@remix-run/react" }],
    },
  ]);
});

Deno.test("the catch-all generator rule speaks only for unknown generators", async () => {
  assert.deepEqual(
    (await detectLibraries({ urls: [], generators: ["Hugo 0.121.1"] })).map((
      l,
    ) => [l.name, l.version]),
    [["Hugo", "0.121.1"]],
  );
  assert.deepEqual(
    (await detectLibraries({ urls: [], generators: ["Joomla! - Open Source Content Management"] }))
      .map((l) => [l.name, l.version, l.confidence]),
    [["Joomla!", null, 50]],
  );
});

Deno.test("nothing detected on a page with nothing in it", async () => {
  assert.deepEqual(
    await detectLibraries({ urls: [], generators: [], doc: parseHtml(""), html: "" }),
    [],
  );
});

Deno.test("names from URLs are lowercased and aliased; fixed names are kept", () => {
  assert.equal(canonicalName("Chart.js", true), "chart.js");
  assert.equal(canonicalName("lodash.js", true), "lodash");
  assert.equal(canonicalName("twitter-bootstrap", true), "bootstrap");
  assert.equal(canonicalName("WordPress", false), "WordPress");
});

Deno.test("identifyUrl prefers the most confident rule, then a versioned match", () => {
  assert.deepEqual(identifyUrl("https://esm.sh/v135/@preact/signals@1.2.1/es2022/x.js"), {
    name: "@preact/signals",
    version: "1.2.1",
    value: "https://esm.sh/v135/@preact/signals@1.2.1/es2022/x.js",
  });
  assert.equal(identifyUrl("https://example.com/js/jquery-3.6.0.min.js")?.version, "3.6.0");
  assert.equal(identifyUrl("https://example.com/app.js"), null);
});

Deno.test("the streaming selector matcher picks what each selector rule's example selects", () => {
  for (const rule of RULES.filter((r) => r.on === "selector")) {
    // The example, then an element no rule wants: its first match must stay the one kept.
    const doc = parseHtml(`${rule.example.input}<p class="x">y</p>`);
    const run = selectorMatcher([rule])();
    walk(doc, (n) => {
      if (n.type === "tag" || n.type === "script" || n.type === "style") {
        run.visit((n as Element).name, (n as Element).attribs);
      }
    });
    const expected = selectFirst(doc, rule.selector!)!;
    assert.deepEqual(run.selected.get(rule.id)?.attribs, expected.attribs, rule.id);
    assert.equal(run.selected.get(rule.id)?.name, expected.name, rule.id);
  }
  const run = selectorMatcher(RULES)();
  run.visit("div", { class: "app", id: "main" });
  run.visit("p", {});
  assert.equal(run.selected.size, 0, "elements without the rules' attributes match none");
  run.visit("astro-island", {});
  assert.deepEqual(
    [...run.selected.keys()],
    ["astro-island"],
    "a tag-name selector needs no attribute",
  );
});

Deno.test("a selector rule with a combinator is refused: one element is tested, not its ancestors", () => {
  assert.throws(
    () => selectorMatcher([{ ...RULES.find((r) => r.on === "selector")!, selector: "div > p" }]),
    /combinator/,
  );
});

Deno.test("folding is linear: many versions of one library, and one value repeated, fold in one pass", async () => {
  const fold = async (count: number) => {
    const urls = Array.from(
      { length: count },
      (_, i) => `https://code.jquery.com/jquery-3.${i}.1.min.js`,
    );
    const started = performance.now();
    const libs = await detectLibraries({ urls });
    return { libs, ms: performance.now() - started };
  };
  await fold(1_000); // warm
  const small = await fold(3_000);
  const large = await fold(30_000);
  assert.equal(large.libs.length, 30_000);
  assert.ok(large.libs.every((l) => l.name === "jquery" && l.confidence === 100));
  // Ten times the hits: about ten times the time (each version filtered the whole group: ×100).
  const ratio = large.ms / small.ms;
  assert.ok(ratio < 35, `×10 the hits took ×${ratio.toFixed(1)} the time`);
  // 150,000 copies of one generator tag are one value, with one piece of evidence.
  const [wp] = await detectLibraries({
    urls: [],
    generators: Array(150_000).fill("WordPress 6.1"),
  });
  assert.equal(wp.version, "6.1");
  assert.equal(wp.evidence.length, 1);
});

Deno.test("a selector rule is compiled when an element first needs it, not before", () => {
  // A pseudo-class css-select does not know: parsing (to key the rule) passes, compiling fails.
  const rule = { ...RULES.find((r) => r.on === "selector")!, selector: "[data-x]:no-such-pseudo" };
  const run = selectorMatcher([rule])();
  run.visit("div", { id: "a" });
  assert.equal(run.selected.size, 0, "no element needed it: never compiled");
  assert.throws(() => run.visit("div", { "data-x": "" }), /no-such-pseudo/);
});

Deno.test("an html rule runs only where the page's prefilter found its literal", async () => {
  const html = '<script>window.__NUXT__={}</script><div data-v-7ba5bd90="">';
  const names = async (htmlHas?: (literal: string) => boolean) =>
    (await detectLibraries({ urls: [], html, htmlHas })).map((l) => l.name);
  assert.deepEqual(await names(), ["nuxt", "vue"]);
  assert.deepEqual(await names(() => true), ["nuxt", "vue"]);
  assert.deepEqual(await names((literal) => literal !== "window.__nuxt__"), ["vue"]);
  assert.deepEqual(await names(() => false), []);
});

Deno.test("the rule set's page prefilter finds every html rule's literal (the data holds them)", async () => {
  const literals = htmlRuleLiterals();
  assert.equal(literals.length, RULES.filter((r) => r.on === "html").length);
  const html = (await loadTechRules()).text.html;
  for (const literal of literals) assert.notEqual(html.literalId(literal), undefined, literal);
  const found = html.index.find("x WINDOW.__Nuxt__= y");
  assert.ok(found.has(html.literalId("window.__nuxt__")!));
});
