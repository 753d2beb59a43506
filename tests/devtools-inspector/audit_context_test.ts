/** The audit context (audit_context.ts): CSP read policy by policy, with yields, as in one call. */
import assert from "node:assert/strict";
import { buildAuditContext } from "../../functions/devtools-inspector/audit_context.ts";
import { intersectPolicies, parseCsp } from "../../functions/devtools-inspector/csp.ts";
import { scanPage } from "../../functions/devtools-inspector/page_scan.ts";

Deno.test("buildAuditContext: CSPs parsed and intersected one at a time equal one parseCsp and intersectPolicies", async () => {
  const header = "default-src 'self' https:; object-src 'none', script-src 'self' *.cdn.example";
  const metas = [
    "script-src https://a.cdn.example 'unsafe-inline'; img-src *, frame-ancestors 'none'",
    "default-src 'self'; style-src 'self' 'unsafe-inline', nonsense",
  ];
  const html = `<!doctype html><title>t</title>${
    metas.map((m) => `<meta http-equiv="Content-Security-Policy" content="${m}">`).join("")
  }`;
  let yields = 0;
  const ctx = await buildAuditContext({
    finalUrl: "https://shop.example/",
    headers: new Headers({ "content-security-policy": header }),
    cookies: [],
    page: await scanPage(html),
    httpRoute: { reached: true, steps: [{ url: "https://shop.example/", status: 200 }] },
    preflight: { answered: true, origin: "https://x.test", status: 204, headers: new Headers() },
  }, () => Promise.resolve(void yields++));
  const fromHeader = parseCsp([header]);
  const fromMeta = parseCsp(metas, true);
  assert.deepEqual(ctx.csp.header, fromHeader.policies);
  assert.deepEqual(ctx.csp.meta, fromMeta.policies);
  assert.deepEqual(ctx.csp.invalid, [...fromHeader.invalid, ...fromMeta.invalid]);
  assert.deepEqual(
    ctx.csp.effective,
    intersectPolicies([...fromHeader.policies, ...fromMeta.policies]),
  );
  // A yield per <meta> policy read (4) and per policy intersected (2 + 2).
  assert.equal(yields, 4 + 4);
});
