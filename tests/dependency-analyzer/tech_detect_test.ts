/** The engine over a small rule table: signals, confidence, implies, excludes, requires. */
import assert from "node:assert/strict";
import { compileTechRules } from "../../functions/dependency-analyzer/tech_rules.ts";
import { detectTechnologies } from "../../functions/dependency-analyzer/tech_detect.ts";
import { pageSignals } from "./signals.ts";

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

Deno.test("meta and headers detect, with version, categories, evidence; implies follow", async () => {
  const found = await detectTechnologies(
    RULES,
    pageSignals({
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
    pageSignals({ scriptSrc: ["https://x.test/acme-plugin.js"] }),
  );
  assert.deepEqual(alone.map((t) => t.name), []);
  const together = await detectTechnologies(
    RULES,
    pageSignals({
      scriptSrc: ["https://x.test/acme-plugin.js"],
      meta: new Map([["generator", ["Acme 2"]]]),
    }),
  );
  assert.ok(together.some((t) => t.name === "Acme Plugin"));
});

Deno.test("excludes remove, and html, inline scripts and cookies are read", async () => {
  const found = await detectTechnologies(
    RULES,
    pageSignals({
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
    pageSignals({ html: `${filler}<div id="a" data-tracker-id="9"></div>${filler}` }),
  );
  assert.deepEqual(found.map((t) => t.name), ["Tracker"]);
  assert.equal(found[0].evidence[0].value, '<div id="a" data-tracker-id');
});

Deno.test("a pattern of several literals matches first where the page has it first", async () => {
  const rules = compileTechRules({
    "Widget": { cats: [2], html: '<[^>]+(?:id|class)="widgetry' },
  }, CATEGORIES);
  const filler = "<p>filler text</p>".repeat(2_000);
  const html = `${filler}<span class="widgetry-a">${filler}<div id="widgetry-b">${filler}`;
  assert.deepEqual(rules.text.html.all()[0].literals, ['id="widgetry', 'class="widgetry']);
  const [found] = await detectTechnologies(rules, pageSignals({ html }));
  assert.equal(found.evidence[0].value, '<span class="widgetry');
});

Deno.test("a match as long as its pattern allows is found in its literal's window", async () => {
  // `<i[^>]{0,20}data-zz` spans at most 29 characters: its windows are that wide, not ±1024.
  const rules = compileTechRules({ "Zz": { cats: [2], html: "<i[^>]{0,20}data-zz" } }, CATEGORIES);
  assert.equal(rules.text.html.all()[0].maxLength, 29);
  const filler = "<p>filler text</p>".repeat(2_000);
  const longest = `<i${"a".repeat(20)}data-zz`;
  const [found] = await detectTechnologies(rules, pageSignals({ html: filler + longest + filler }));
  assert.equal(found.evidence[0].value, longest);
});

Deno.test("a negated class is no anchor: such a pattern runs near its literal, an anchored one on all", async () => {
  const rules = compileTechRules({
    "Near": { cats: [2], html: "<link[^>]+nearlib" },
    "Whole": { cats: [2], html: "^<!doctype html>[^<]*<html[^>]+wholelib" },
  }, CATEGORIES);
  // What each pattern's regex is given (a spy around the real one).
  const seen = new Map<string, number[]>();
  for (const p of rules.text.html.all()) {
    const regex = p.regex;
    const exec = regex.exec.bind(regex);
    regex.exec = (text: string) => {
      seen.set(p.source, [...seen.get(p.source) ?? [], text.length]);
      return exec(text);
    };
  }
  const filler = "<p>filler text</p>".repeat(20_000);
  const html = `<!doctype html><html class="wholelib">${filler}<link href="nearlib.css">${filler}`;
  const found = await detectTechnologies(rules, pageSignals({ html }));
  assert.deepEqual(found.map((t) => t.name).sort(), ["Near", "Whole"]);
  assert.ok(seen.get("<link[^>]+nearlib")!.every((n) => n < 4096), "a window around the literal");
  assert.deepEqual(seen.get("^<!doctype html>[^<]*<html[^>]+wholelib"), [html.length]);
});

/** The whole rule set's detection time of `html` (its best of a few runs, warm). */
async function detectionMs(html: string): Promise<number> {
  const { loadTechRules } = await import("../../functions/dependency-analyzer/tech_rules.ts");
  const rules = await loadTechRules();
  let best = Infinity;
  for (let i = 0; i < 3; i++) {
    const started = performance.now();
    await detectTechnologies(rules, pageSignals({ html }));
    best = Math.min(best, performance.now() - started);
  }
  return best;
}

Deno.test("the whole rule set: patterns that could backtrack run in linear time, and still detect", async () => {
  const { loadTechRules } = await import("../../functions/dependency-analyzer/tech_rules.ts");
  const rules = await loadTechRules();
  const bootstrap = rules.text.html.all().filter((p) =>
    rules.name(p.tech) === "Bootstrap" && p.source.startsWith("<link")
  );
  assert.ok(bootstrap.length > 0 && bootstrap.every((p) => p.linear), "on the linear engine");
  // Still what it detected (and its version), on the linear engine.
  const found = await detectTechnologies(
    rules,
    pageSignals({ html: '<link rel="stylesheet" href="/css/bootstrap-4.3.1.min.css">' }),
  );
  const hit = found.find((t) => t.name === "Bootstrap");
  assert.equal(hit?.version, "4.3.1");
  assert.equal(hit?.evidence[0].source, "html");
  // A 328-byte page took 18.6 s (cubic backtracking in a run of digits), govuk-frontend's rule
  // the same; now as long as an ordinary page of that size, measured in the same run.
  const tail = "></head><body>hi</body></html>";
  const hostile = (name: string, ch: string) =>
    `<html><head><title>x</title><link href=${name}${ch.repeat(250)}${tail}`.repeat(3);
  for (const name of ["bootstrap", "govuk-frontend"]) {
    const ordinary = await detectionMs(hostile(name, "x"));
    const digits = await detectionMs(hostile(name, "1"));
    assert.ok(
      digits < 20 * ordinary + 20,
      `${name}: ${digits.toFixed(1)} ms with digits, ${ordinary.toFixed(1)} ms without`,
    );
  }
});
