/** The Observatory's arithmetic: bonuses only from 90 up, a floor of 0, the grade chart. */
import assert from "node:assert/strict";
import { gradeOf, totalScore } from "../../functions/devtools-inspector/score.ts";
import { audit } from "./audit_helper.ts";

Deno.test("penalties come off 100; bonuses count only when the penalties leave 90 or more", () => {
  assert.equal(totalScore([]), 100);
  assert.equal(totalScore([0, 0]), 100);
  assert.equal(totalScore([5, 10]), 115);
  assert.equal(totalScore([-10, 5, 10]), 105); // 90 after penalties: the bonuses count
  assert.equal(totalScore([-15, 5, 10]), 85); // 85: they do not
  assert.equal(totalScore([-5, -5, 10]), 100);
  assert.equal(totalScore([-20, -25, 10]), 55);
  assert.equal(totalScore([-50, -40, -25, 10]), 0); // never below 0
});

Deno.test("the grade chart, at and around each boundary", () => {
  const chart: [number, string][] = [
    [140, "A+"],
    [100, "A+"],
    [99, "A"],
    [90, "A"],
    [89, "A-"],
    [85, "A-"],
    [84, "B+"],
    [80, "B+"],
    [79, "B"],
    [70, "B"],
    [69, "B-"],
    [65, "B-"],
    [64, "C+"],
    [60, "C+"],
    [59, "C"],
    [50, "C"],
    [49, "C-"],
    [45, "C-"],
    [44, "D+"],
    [40, "D+"],
    [39, "D"],
    [30, "D"],
    [29, "D-"],
    [25, "D-"],
    [24, "F"],
    [0, "F"],
  ];
  for (const [score, grade] of chart) assert.equal(gradeOf(score), grade, String(score));
});

Deno.test("a hardened HTTPS page earns every bonus: 140, A+, all checks pass", async () => {
  const report = await audit({
    headers: {
      "strict-transport-security": "max-age=63072000; includeSubDomains; preload",
      "content-security-policy": "default-src 'none'; script-src 'self'; frame-ancestors 'none'",
      "x-content-type-options": "nosniff",
      "referrer-policy": "no-referrer",
      "permissions-policy": "camera=()",
      "cross-origin-opener-policy": "same-origin",
      "cross-origin-resource-policy": "same-origin",
    },
    setCookies: ["__Host-sid=x; Path=/; Secure; HttpOnly; SameSite=Strict"],
    html: `<!doctype html><script src="/app.js" integrity="sha384-abc"></script>`,
  });
  // CSP +10, frame-ancestors +5, Referrer-Policy +5, CORP +10, cookies +5, SRI +5.
  assert.equal(report.score, 140);
  assert.equal(report.grade, "A+");
  assert.equal(report.testsPassed, 17);
  assert.equal(report.testsFailed, 0);
});

Deno.test("the report's score is the arithmetic over its rows, and passes are counted", async () => {
  const report = await audit({
    url: "http://shop.example/",
    headers: { "referrer-policy": "no-referrer", "x-frame-options": "DENY" },
    setCookies: ["sessionid=x"],
  });
  const modifiers = report.checks.map((c) => c.scoreModifier);
  assert.equal(report.score, totalScore(modifiers));
  // HSTS -20, no redirect to HTTPS -20, CSP -25, XCTO -5, cookies -40: 0 (never below); the
  // Referrer-Policy bonus does not count.
  assert.equal(report.score, 0);
  assert.equal(report.grade, "F");
  assert.equal(report.testsPassed, report.checks.filter((c) => c.pass).length);
  assert.equal(report.testsPassed + report.testsFailed, report.checks.length);
  assert.equal(report.testsFailed, 5);
});

Deno.test("a passing check may still cost points (CSP passive content over HTTP)", async () => {
  const report = await audit({
    headers: { "content-security-policy": "default-src 'self'; img-src http:" },
  });
  const row = report.checks.find((c) => c.id === "content-security-policy")!;
  assert.equal(row.pass, true);
  assert.equal(row.scoreModifier, -10);
  assert.ok(row.advice);
});
