/** CSP parsing (header and meta) and the Observatory's reading of a policy. */
import assert from "node:assert/strict";
import {
  intersectPolicies,
  MAX_INTERSECTED_SOURCES,
  parseCsp,
  readPolicy,
  restrictsFraming,
} from "../../functions/devtools-inspector/csp.ts";
import { buildAuditContext } from "../../functions/devtools-inspector/audit_context.ts";
import { audit, auditInput } from "./audit_helper.ts";

Deno.test("a header may carry several policies; directives and sources are lowercased", () => {
  const { policies, invalid } = parseCsp([
    "Default-Src 'SELF' https://CDN.example; report-uri /r; report-uri /s, img-src 'self'",
  ]);
  assert.deepEqual(invalid, []);
  assert.deepEqual(policies.map((p) => [...p]), [
    [["default-src", ["'self'", "https://cdn.example"]], ["report-uri", ["/r"]]],
    [["img-src", ["'self'"]]],
  ]);
});

Deno.test("an empty source list means 'none'; unknown directives are skipped", () => {
  const { policies } = parseCsp(["default-src; navigate-anywhere *; script-src 'self'"]);
  assert.deepEqual([...policies[0]], [["default-src", ["'none'"]], ["script-src", ["'self'"]]]);
});

Deno.test("invalid: a repeated directive, a malformed name, or nothing known", () => {
  const { policies, invalid } = parseCsp([
    "script-src 'self'; script-src *",
    "script-src: 'self'",
    "whatever",
  ]);
  assert.equal(policies.length, 0);
  assert.deepEqual(invalid, ["script-src 'self'; script-src *", "script-src: 'self'", "whatever"]);
});

Deno.test("<meta> drops header-only directives; a policy of only those is skipped", () => {
  const meta = parseCsp(["frame-ancestors 'none'; script-src 'self'", "sandbox"], true);
  assert.deepEqual(meta.invalid, []);
  assert.deepEqual(meta.policies.map((p) => [...p.keys()]), [["script-src"]]);
});

Deno.test("readPolicy names every problem, and the first in the Observatory's order decides", () => {
  const [policy] = parseCsp([
    "default-src 'self' http://legacy.example; script-src 'self' 'unsafe-eval' data:; " +
    "img-src http:",
  ]).policies;
  const { result, evidence } = readPolicy(policy, true);
  assert.equal(result, "csp-implemented-with-unsafe-inline");
  assert.deepEqual(
    evidence,
    [
      "script-src allows data:",
      "default-src allows http://legacy.example on an HTTPS page",
      "script-src allows 'unsafe-eval'",
      "img-src allows http: on an HTTPS page",
      "default-src allows http://legacy.example on an HTTPS page",
    ].filter((v, i, a) => a.indexOf(v) === i),
  );
  // Over plain HTTP, http: sources are no downgrade.
  assert.equal(readPolicy(policy, false).result, "csp-implemented-with-unsafe-inline");
});

Deno.test("with several policies, the strictest decides (all are enforced)", async () => {
  const report = await audit({
    headers: { "content-security-policy": "frame-ancestors 'none', default-src 'self'" },
  });
  const row = report.checks.find((c) => c.id === "content-security-policy")!;
  assert.equal(row.result, "csp-implemented-with-no-unsafe");
  const metaRow = (await audit({
    html: `<meta http-equiv="Content-Security-Policy" content="default-src 'none'">`,
  })).checks.find((c) => c.id === "content-security-policy")!;
  assert.equal(metaRow.result, "csp-implemented-with-no-unsafe-default-src-none");
  assert.deepEqual(metaRow.evidence, ["1 policy from <meta http-equiv>"]);
});

Deno.test("a <meta> policy repeated word for word counts each time and is intersected once", async () => {
  const meta = (policy: string) =>
    `<meta http-equiv="Content-Security-Policy" content="${policy}">`;
  const csp = async (...policies: string[]) =>
    (await buildAuditContext(
      await auditInput({
        headers: { "content-security-policy": "default-src 'self' https:" },
        html: policies.map(meta).join(""),
      }),
    )).csp;
  const once = await csp("script-src 'self' https:", "img-src 'self'");
  const thrice = await csp(
    "script-src 'self' https:",
    "img-src 'self'",
    "script-src 'self' https:",
    "script-src 'self' https:",
  );
  assert.equal(thrice.meta.length, 4);
  assert.equal(thrice.meta[0], thrice.meta[2]); // parsed once
  assert.deepEqual([...thrice.effective!], [...once.effective!]);
  // A different policy after the repeats still narrows the intersection.
  const narrower = await csp(
    "script-src 'self' https:",
    "img-src 'self'",
    "script-src 'self' https:",
    "script-src 'self'",
  );
  assert.deepEqual(narrower.effective!.get("script-src"), ["'self'"]);
  assert.deepEqual(once.effective!.get("script-src"), ["'self'", "https:"]);
});

Deno.test("frame-ancestors restricts framing unless it allows any origin", () => {
  const framing = (p: string) => restrictsFraming(parseCsp([p]).policies[0]);
  assert.equal(framing("frame-ancestors 'none'"), true);
  assert.equal(framing("frame-ancestors 'self' https://partner.example"), true);
  assert.equal(framing("frame-ancestors https:"), false);
  assert.equal(framing("frame-ancestors *"), false);
  assert.equal(framing("default-src 'none'"), false); // frame-ancestors has no fallback
});

Deno.test("intersectPolicies: what every policy allows, per directive, with default-src fallback", () => {
  const [a, b] = parseCsp([
    "default-src 'self' https://cdn.example; img-src *",
    "script-src https:; img-src 'self' data:",
  ]).policies;
  const both = intersectPolicies([a, b]);
  // 'self' of an HTTPS page is under https:.
  assert.deepEqual(both.get("script-src"), ["'self'", "https://cdn.example"]);
  assert.deepEqual(both.get("img-src"), ["'self'"]);
  assert.deepEqual(both.get("default-src"), ["'self'", "https://cdn.example"]);
  const [c, d] = parseCsp(["script-src 'self'", "script-src https://other.example"]).policies;
  assert.deepEqual(intersectPolicies([c, d]).get("script-src"), ["'none'"]);
  const [e, f] =
    parseCsp(["script-src *.example.com", "script-src https://a.example.com"]).policies;
  assert.deepEqual(intersectPolicies([e, f]).get("script-src"), ["https://a.example.com"]);
});

Deno.test("intersectPolicies: huge source lists are compared up to a bound", () => {
  const many = Array.from({ length: 50_000 }, (_, i) => `https://h${i}.example`).join(" ");
  const [a, b] = parseCsp([`script-src ${many}`, `script-src ${many}`]).policies;
  const both = intersectPolicies([a, b]).get("script-src")!;
  assert.equal(both.length, MAX_INTERSECTED_SOURCES);
  assert.equal(both[0], "https://h0.example");
});
