/** The rule table: every row is well formed and detects what its own example promises. */
import assert from "node:assert/strict";
import { ALIASES, RULES } from "../../functions/dependency-analyzer/rules.ts";
import { detectLibraries, matchRule } from "../../functions/dependency-analyzer/detect.ts";
import { parseHtml } from "../../shared/net/html.ts";

Deno.test("rule ids are unique and each row has what its target needs", () => {
  const ids = RULES.map((r) => r.id);
  assert.equal(new Set(ids).size, ids.length, "duplicate rule id");
  for (const rule of RULES) {
    assert.ok(rule.confidence >= 0 && rule.confidence <= 100, `${rule.id}: confidence`);
    if (rule.on === "selector") {
      assert.ok(rule.selector, `${rule.id}: selector rules need a selector`);
      assert.ok(rule.name, `${rule.id}: selector rules need a fixed name`);
    } else {
      assert.ok(rule.pattern instanceof RegExp, `${rule.id}: needs a pattern`);
      assert.ok(
        rule.name || rule.pattern.source.includes("(?<name>"),
        `${rule.id}: needs a fixed name or a name group`,
      );
    }
  }
});

for (const rule of RULES) {
  Deno.test(`rule ${rule.id} detects its example`, () => {
    const input = rule.on === "selector" ? parseHtml(rule.example.input) : rule.example.input;
    const m = matchRule(rule, input);
    assert.ok(m, `${rule.id} did not match ${rule.example.input}`);
    assert.equal(m.name, rule.example.name);
    assert.equal(m.version, rule.example.version);
  });
}

Deno.test("rules do not fire on near misses", () => {
  const byId = Object.fromEntries(RULES.map((r) => [r.id, r]));
  const misses: [string, string][] = [
    ["cdn-jsdelivr-npm", "https://cdn.jsdelivr.net/gh/user/repo@1.0.0/x.js"],
    ["cdn-unpkg", "https://unpkg.example.com/react@18.2.0"],
    ["cdn-cdnjs", "https://cdnjs.cloudflare.com/ajax/libs/jquery"],
    ["cdn-code-jquery", "https://code.jquery.com/ui/1.13.2/jquery-ui.min.js"],
    ["versioned-file-name", "https://example.com/_next/static/chunks/main-5f2c8e4a1b3d6e70.js"],
    ["versioned-file-name", "https://example.com/js/app-1.2.3.min.js"],
    ["versioned-file-name", "https://example.com/img/logo-2.0.1.png"],
    ["google-fonts", "https://fonts.gstatic.com/s/inter/v13/x.woff2"],
    ["generator-wordpress", "WordPress.com"],
    ["nextjs-static-path", "https://example.com/next/static/x.js"],
    ["vue-scoped-style", '<div data-v-app="">'],
    ["wordpress-paths", "https://example.com/wp-json/"],
  ];
  for (const [id, input] of misses) {
    assert.ok(byId[id], `unknown rule ${id}`);
    assert.equal(matchRule(byId[id], input), null, `${id} matched ${input}`);
  }
});

Deno.test("selector rules see the parsed page, not the text", () => {
  const rule = RULES.find((r) => r.id === "angular-ng-version")!;
  assert.equal(matchRule(rule, parseHtml("<p>ng-version is an attribute</p>")), null);
  assert.deepEqual(matchRule(rule, parseHtml('<app-root ng-version="17.0.8">')), {
    name: "@angular/core",
    version: "17.0.8",
    value: 'ng-version="17.0.8"',
  });
});

Deno.test("every example, fed through the engine alone, yields its library", async () => {
  for (const rule of RULES) {
    const { input, name, version } = rule.example;
    const found = await detectLibraries({
      urls: rule.on === "url" ? [input] : [],
      generators: rule.on === "generator" ? [input] : [],
      doc: rule.on === "selector" ? parseHtml(input) : undefined,
      html: rule.on === "html" ? input : undefined,
    }, [rule]);
    assert.ok(
      found.some((l) => l.name === name && l.version === version),
      `${rule.id}: ${JSON.stringify(found)}`,
    );
  }
});

Deno.test("aliases map catalogue names to lowercase npm names", () => {
  for (const [from, to] of Object.entries(ALIASES)) {
    assert.equal(from, from.toLowerCase());
    assert.match(to, /^(?:@[a-z0-9-]+\/)?[a-z0-9][a-z0-9._-]*$/, to);
  }
});
