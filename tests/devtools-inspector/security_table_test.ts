/**
 * Every outcome of every row of the security table, each reached by a response built for it;
 * plus the table's own consistency (ids, pass flags, advice).
 */
import assert from "node:assert/strict";
import { SECURITY_CHECKS } from "../../functions/devtools-inspector/security_table.ts";
import type { TlsInfo } from "../../functions/devtools-inspector/schema.ts";
import { audit, resultOf, type Scenario } from "./audit_helper.ts";

const HSTS = { "strict-transport-security": "max-age=31536000" };
const html = (body: string) => `<!doctype html><html><head></head><body>${body}</body></html>`;
const csp = (policy: string): Scenario => ({ headers: { "content-security-policy": policy } });
/** A chain that started from http://: [status, url] per response. */
const route = (...steps: [number, string][]): Scenario => ({
  httpRoute: { reached: true, steps: steps.map(([status, url]) => ({ status, url })) },
});
const acao = (headers: Record<string, string>, status = 204): Scenario => ({
  preflight: { status, headers },
});

/** A TLS 1.3 handshake with a trusted certificate for shop.example, 200 days left. */
const GOOD_TLS: TlsInfo = {
  error: null,
  protocol: "TLSv1.3",
  cipher: "TLS_AES_128_GCM_SHA256",
  authorized: true,
  authorizationError: null,
  nameMismatch: null,
  certificate: {
    subject: "CN=shop.example",
    issuer: "C=US, O=Let's Encrypt, CN=R11",
    subjectAltNames: ["DNS:shop.example"],
    notBefore: "2026-01-01T00:00:00.000Z",
    notAfter: "2027-01-01T00:00:00.000Z",
    daysLeft: 200,
    selfSigned: false,
    serialNumber: "01",
    fingerprint256: "AA:BB",
  },
};
const tlsWith = (
  over: Partial<TlsInfo>,
  cert: Partial<NonNullable<TlsInfo["certificate"]>> = {},
): Scenario => ({
  tls: { ...GOOD_TLS, ...over, certificate: { ...GOOD_TLS.certificate!, ...cert } },
});

/** check id → [expected result, scenario]; several rows may reach the same result. */
const CASES: Record<string, [string, Scenario][]> = {
  "strict-transport-security": [
    ["hsts-preload-ready", {
      headers: { "strict-transport-security": "max-age=63072000; includeSubDomains; preload" },
    }],
    ["hsts-implemented-max-age-at-least-six-months", {
      headers: { "strict-transport-security": "max-age=15552000; includeSubDomains" },
    }],
    ["hsts-implemented-max-age-less-than-six-months", {
      headers: { "strict-transport-security": "max-age=86400" },
    }],
    ["hsts-not-implemented", {}],
    ["hsts-header-invalid", { headers: { "strict-transport-security": "max-age=soon" } }],
    ["hsts-header-invalid", { headers: { "strict-transport-security": "includeSubDomains" } }],
    ["hsts-header-invalid", {
      headers: { "strict-transport-security": "max-age=31536000, max-age=31536000" },
    }],
    ["hsts-not-implemented-no-https", { url: "http://shop.example/", headers: HSTS }],
  ],
  "redirection": [
    ["redirection-to-https", route([301, "http://shop.example/"], [200, "https://shop.example/"])],
    [
      "redirection-to-https",
      route(
        // Same host on HTTPS first (HSTS can be set there), then elsewhere: fine.
        [301, "http://shop.example/"],
        [301, "https://shop.example/"],
        [200, "https://www.shop.example/"],
      ),
    ],
    ["redirection-not-needed-no-http", {
      httpRoute: { reached: false, reason: "Connection refused by shop.example" },
    }],
    [
      "redirection-off-host-from-http",
      route(
        [301, "http://shop.example/"],
        [200, "https://www.shop.example/"],
      ),
    ],
    [
      "redirection-not-to-https-on-initial-redirection",
      route(
        [301, "http://shop.example/"],
        [301, "http://www.shop.example/"],
        [200, "https://www.shop.example/"],
      ),
    ],
    [
      "redirection-not-to-https",
      route(
        [302, "http://shop.example/"],
        [200, "http://www.shop.example/"],
      ),
    ],
    [
      "redirection-not-to-https",
      route(
        [301, "http://shop.example/"],
        [302, "https://shop.example/"],
        [200, "http://shop.example/plain"],
      ),
    ],
    ["redirection-missing", route([200, "http://shop.example/"])],
  ],
  "content-security-policy": [
    ["csp-implemented-with-no-unsafe-default-src-none", csp("default-src 'none'; img-src 'self'")],
    ["csp-implemented-with-no-unsafe", csp("default-src 'self'")],
    ["csp-implemented-with-no-unsafe", {
      // A nonce makes 'unsafe-inline' inert, and 'strict-dynamic' disables host sources.
      headers: {
        "content-security-policy":
          "script-src 'nonce-abc' 'strict-dynamic' 'unsafe-inline' https:; object-src 'none'; " +
          "style-src 'self'",
      },
    }],
    ["csp-implemented-with-no-unsafe", {
      html: `<meta http-equiv="Content-Security-Policy" content="default-src 'self'">`,
    }],
    [
      "csp-implemented-with-unsafe-inline-in-style-src-only",
      csp("default-src 'self'; style-src 'self' 'unsafe-inline'"),
    ],
    [
      "csp-implemented-with-insecure-scheme-in-passive-content-only",
      csp("default-src 'self'; img-src 'self' http:"),
    ],
    [
      "csp-implemented-with-unsafe-eval",
      csp("default-src 'self'; script-src 'self' 'unsafe-eval'"),
    ],
    [
      "csp-implemented-with-unsafe-inline",
      csp("default-src 'self'; script-src 'self' 'unsafe-inline'"),
    ],
    ["csp-implemented-with-unsafe-inline", csp("img-src 'self'")], // scripts unrestricted
    ["csp-implemented-with-unsafe-inline", csp("default-src 'self'; object-src *")],
    [
      "csp-implemented-with-insecure-scheme",
      csp("default-src 'self'; connect-src http://api.shop.example"),
    ],
    ["csp-header-invalid", csp("default-src 'self'; default-src 'none'")],
    ["csp-header-invalid", csp("script-src: 'self'")],
    ["csp-header-invalid", csp("script-src 'strict-dynamic'; object-src 'none'")],
    ["csp-not-implemented-but-reporting-enabled", {
      headers: { "content-security-policy-report-only": "default-src 'self'" },
    }],
    ["csp-not-implemented", {}],
    ["csp-not-implemented", {
      // frame-ancestors is dropped from <meta>, leaving no policy at all.
      html: `<meta http-equiv="content-security-policy" content="frame-ancestors 'none'">`,
    }],
  ],
  "x-frame-options": [
    ["x-frame-options-implemented-via-csp", csp("frame-ancestors 'self'")],
    ["x-frame-options-sameorigin-or-deny", { headers: { "x-frame-options": "DENY" } }],
    ["x-frame-options-sameorigin-or-deny", { headers: { "x-frame-options": "sameorigin" } }],
    ["x-frame-options-allow-from-origin", {
      headers: { "x-frame-options": "ALLOW-FROM https://partner.example" },
    }],
    ["x-frame-options-not-implemented", {}],
    ["x-frame-options-not-implemented", csp("frame-ancestors *")], // allows everyone
    ["x-frame-options-not-implemented", {
      html: `<meta http-equiv="Content-Security-Policy" content="frame-ancestors 'none'">`,
    }],
    ["x-frame-options-header-invalid", { headers: { "x-frame-options": "DENY, SAMEORIGIN" } }],
    ["x-frame-options-header-invalid", { headers: { "x-frame-options": "allowall" } }],
  ],
  "x-content-type-options": [
    ["x-content-type-options-nosniff", { headers: { "x-content-type-options": "NoSniff" } }],
    ["x-content-type-options-not-implemented", {}],
    ["x-content-type-options-header-invalid", {
      headers: { "x-content-type-options": "no-sniff" },
    }],
  ],
  "referrer-policy": [
    ["referrer-policy-private", { headers: { "referrer-policy": "no-referrer" } }],
    ["referrer-policy-private", {
      // An unknown token is skipped; the last recognised one wins.
      headers: { "referrer-policy": "unsafe-url, strict-origin-when-cross-origin, future-policy" },
    }],
    ["referrer-policy-private", {
      headers: { "referrer-policy": "unsafe-url" },
      html: `<meta name="referrer" content="same-origin">`,
    }],
    ["referrer-policy-not-implemented", {}],
    ["referrer-policy-unsafe", { headers: { "referrer-policy": "no-referrer-when-downgrade" } }],
    ["referrer-policy-unsafe", {
      html: `<meta http-equiv="Referrer-Policy" content="unsafe-url">`,
    }],
    ["referrer-policy-header-invalid", { headers: { "referrer-policy": "private-please" } }],
  ],
  "permissions-policy": [
    ["permissions-policy-implemented", {
      headers: {
        "permissions-policy": 'camera=(), geolocation=(self "https://maps.example"), fullscreen=*',
      },
    }],
    ["permissions-policy-feature-policy-only", { headers: { "feature-policy": "camera 'none'" } }],
    ["permissions-policy-not-implemented", {}],
    ["permissions-policy-header-invalid", { headers: { "permissions-policy": "camera 'none'" } }],
    ["permissions-policy-header-invalid", { headers: { "permissions-policy": "camera=(self" } }],
  ],
  "cross-origin-opener-policy": [
    ["coop-implemented-with-same-origin", {
      headers: { "cross-origin-opener-policy": 'same-origin; report-to="coop"' },
    }],
    ["coop-implemented-with-same-origin-allow-popups", {
      headers: { "cross-origin-opener-policy": "same-origin-allow-popups" },
    }],
    ["coop-implemented-with-noopener-allow-popups", {
      headers: { "cross-origin-opener-policy": "noopener-allow-popups" },
    }],
    ["coop-implemented-with-unsafe-none", {
      headers: { "cross-origin-opener-policy": "unsafe-none" },
    }],
    ["coop-not-implemented", {}],
    ["coop-header-invalid", { headers: { "cross-origin-opener-policy": "same-site" } }],
    ["coop-header-invalid", {
      headers: { "cross-origin-opener-policy": "same-origin, unsafe-none" },
    }],
  ],
  "cross-origin-resource-policy": [
    ["corp-implemented-with-same-origin", {
      headers: { "cross-origin-resource-policy": "same-origin" },
    }],
    ["corp-implemented-with-same-site", {
      headers: { "cross-origin-resource-policy": "Same-Site" },
    }],
    ["corp-implemented-with-cross-origin", {
      headers: { "cross-origin-resource-policy": "cross-origin" },
    }],
    ["corp-not-implemented", {}],
    ["corp-header-invalid", { headers: { "cross-origin-resource-policy": "same-host" } }],
  ],
  "cross-origin-resource-sharing": [
    ["cross-origin-resource-sharing-not-implemented", {}],
    ["cross-origin-resource-sharing-not-implemented", {
      preflight: { answered: false, origin: "https://inspector.example", reason: "timed out" },
    }],
    // A preflight that is not answered ok grants nothing, whatever its headers say.
    [
      "cross-origin-resource-sharing-not-implemented",
      acao({ "access-control-allow-origin": "*" }, 405),
    ],
    [
      "cross-origin-resource-sharing-implemented-with-public-access",
      acao({ "access-control-allow-origin": " * ", "access-control-allow-credentials": "true" }),
    ],
    [
      "cross-origin-resource-sharing-implemented-with-restricted-access",
      acao({ "access-control-allow-origin": "https://app.shop.example" }),
    ],
    [
      // The unknown origin echoed, but without credentials: only public data is exposed.
      "cross-origin-resource-sharing-implemented-with-restricted-access",
      acao({ "access-control-allow-origin": "https://inspector.example" }, 200),
    ],
    [
      "cross-origin-resource-sharing-implemented-with-universal-access",
      acao({
        "access-control-allow-origin": "https://inspector.example",
        "access-control-allow-credentials": "TRUE",
      }),
    ],
  ],
  "cookies": [
    ["cookies-secure-with-httponly-sessions-and-samesite", {
      setCookies: [
        "sessionid=a; Secure; HttpOnly; SameSite=Lax",
        "theme=b; Secure; SameSite=Strict",
      ],
    }],
    ["cookies-secure-with-httponly-sessions", { setCookies: ["sessionid=a; Secure; HttpOnly"] }],
    ["cookies-not-found", {}],
    ["cookies-without-secure-flag-but-protected-by-hsts", {
      headers: HSTS,
      setCookies: ["theme=b; SameSite=Lax"],
    }],
    ["cookies-session-without-secure-flag-but-protected-by-hsts", {
      headers: HSTS,
      setCookies: ["PHPSESSID=a; HttpOnly; SameSite=Lax"],
    }],
    ["cookies-without-secure-flag", { setCookies: ["theme=b; SameSite=Lax"] }],
    ["cookies-without-secure-flag", {
      // HSTS with a short max-age does not protect.
      headers: { "strict-transport-security": "max-age=600" },
      setCookies: ["theme=b; SameSite=Lax"],
    }],
    ["cookies-samesite-flag-invalid", { setCookies: ["theme=b; Secure; SameSite=Relaxed"] }],
    ["cookies-samesite-flag-invalid", { headers: HSTS, setCookies: ["theme=b; SameSite=None"] }],
    ["cookies-anticsrf-without-samesite-flag", { setCookies: ["csrftoken=c; Secure"] }],
    ["cookies-session-without-httponly-flag", {
      setCookies: ["session=a; Secure; SameSite=Lax"],
    }],
    ["cookies-session-without-secure-flag", {
      setCookies: ["login_token=a; HttpOnly; SameSite=Lax"],
    }],
    ["cookies-session-without-secure-flag", {
      url: "http://shop.example/",
      setCookies: ["sess=a; HttpOnly; SameSite=Lax"],
    }],
  ],
  "mixed-content": [
    ["mixed-content-none", {
      html: html(`<img src="/a.png"><script src="https://cdn.other.example/x.js"></script>`),
    }],
    ["mixed-content-upgraded", {
      headers: { "content-security-policy": "upgrade-insecure-requests" },
      html: html(`<img src="http://shop.example/a.png">`),
    }],
    ["mixed-content-not-html", { html: null }],
    ["mixed-content-not-https", {
      url: "http://shop.example/",
      html: html(`<script src="http://cdn.other.example/x.js"></script>`),
    }],
    ["mixed-content-passive", { html: html(`<img src="http://shop.example/a.png">`) }],
    ["mixed-content-passive", {
      html: html(`<img src="/a.png" srcset="/a2.png 2x, http://img.example/a3.png 3x">`),
    }],
    ["mixed-content-active", {
      html: html(`<img src="http://x.example/a.png"><iframe src="http://x.example/"></iframe>`),
    }],
    ["mixed-content-active", {
      html: `<link rel="preload stylesheet" href="http://x.example/a.css">`,
    }],
  ],
  "subresource-integrity": [
    ["sri-implemented-and-all-scripts-loaded-securely", {
      html: html(`<script src="/app.js" integrity="sha384-abc"></script>`),
    }],
    ["sri-implemented-and-external-scripts-loaded-securely", {
      html: html(
        `<script src="/app.js"></script>` +
          `<script src="https://cdn.other.example/x.js" integrity="sha384-abc"></script>`,
      ),
    }],
    ["sri-not-implemented-response-not-html", { html: null }],
    ["sri-not-implemented-but-no-scripts-loaded", { html: html(`<script>run()</script>`) }],
    ["sri-not-implemented-but-no-scripts-loaded", {
      // A data block with a src is never fetched.
      html: html(`<script type="application/ld+json" src="http://cdn.other.example/d.json">`),
    }],
    ["sri-not-implemented-but-all-scripts-loaded-from-secure-origin", {
      html: html(`<script src="/app.js"></script><script src="https://static.shop.example/v.js">`),
    }],
    ["sri-not-implemented-but-external-scripts-loaded-securely", {
      html: html(`<script src="https://cdn.other.example/x.js"></script>`),
    }],
    ["sri-not-implemented-but-external-scripts-loaded-securely", {
      // Protocol-relative on an HTTPS page resolves to HTTPS.
      html: html(`<script src="//cdn.other.example/x.js"></script>`),
    }],
    ["sri-implemented-but-external-scripts-not-loaded-securely", {
      html: html(`<script src="http://cdn.other.example/x.js" integrity="sha384-abc"></script>`),
    }],
    ["sri-not-implemented-and-external-scripts-not-loaded-securely", {
      html: html(
        `<script src="https://cdn.other.example/y.js"></script>` +
          `<script src="http://cdn.other.example/x.js"></script>`,
      ),
    }],
  ],
  "subresource-integrity-stylesheets": [
    ["sri-stylesheets-implemented", {
      html: html(
        `<link rel="stylesheet" href="/a.css">` +
          `<link rel="stylesheet" href="https://cdn.other.example/b.css" integrity="sha384-x">`,
      ),
    }],
    ["sri-stylesheets-not-html", { html: null }],
    ["sri-stylesheets-none-loaded", { html: html(`<style>p{}</style><link rel="icon" href="x">`) }],
    ["sri-stylesheets-first-party-only", {
      html: html(`<link rel="stylesheet" href="https://static.shop.example/a.css">`),
    }],
    ["sri-stylesheets-not-implemented", {
      html: html(`<link rel="stylesheet" href="https://cdn.other.example/b.css">`),
    }],
    ["sri-stylesheets-not-loaded-securely", {
      html: html(
        `<link rel="stylesheet" href="https://cdn.other.example/b.css">` +
          `<link rel="stylesheet" href="http://cdn.other.example/c.css" integrity="sha384-x">`,
      ),
    }],
  ],
  "version-disclosure": [
    ["version-not-disclosed", {}],
    ["version-not-disclosed-software-named", {
      headers: { server: "nginx", "x-powered-by": "Express" },
    }],
    ["version-disclosed", { headers: { server: "Apache/2.4.41 (Ubuntu)" } }],
    ["version-disclosed", { headers: { "x-powered-by": "PHP/8.1.2" } }],
    ["version-disclosed", { headers: { "x-aspnet-version": "4.0.30319" } }],
    ["version-disclosed", { headers: { "x-aspnetmvc-version": "5.2" } }],
    ["version-disclosed", { headers: { "x-generator": "Drupal 10 (https://www.drupal.org)" } }],
    ["version-disclosed", {
      html: html(`<meta name="generator" content="WordPress 6.4.2">`),
    }],
  ],
  "tls-certificate": [
    ["tls-certificate-valid", { tls: GOOD_TLS }],
    ["tls-not-https", { url: "http://shop.example/" }],
    ["tls-handshake-failed", {
      tls: { ...GOOD_TLS, error: "TLS handshake with shop.example failed", certificate: null },
    }],
    ["tls-certificate-expired", tlsWith({ authorized: false }, { daysLeft: -3 })],
    ["tls-certificate-name-mismatch", tlsWith({ nameMismatch: "Host: x. is not in the cert" })],
    ["tls-certificate-self-signed", tlsWith({}, { selfSigned: true })],
    [
      "tls-certificate-untrusted",
      tlsWith({
        authorized: false,
        authorizationError: "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
      }),
    ],
    ["tls-certificate-expiring-soon", tlsWith({}, { daysLeft: 13 })],
    ["tls-certificate-valid", tlsWith({}, { daysLeft: 14 })],
  ],
  "tls-version": [
    ["tls-version-1.3", { tls: GOOD_TLS }],
    ["tls-version-1.2", tlsWith({ protocol: "TLSv1.2" })],
    ["tls-version-not-https", {}],
    ["tls-version-obsolete", tlsWith({ protocol: "TLSv1" })],
    ["tls-version-obsolete", tlsWith({ protocol: "TLSv1.1" })],
    ["tls-version-unknown", { tls: { ...GOOD_TLS, protocol: null, error: "timed out" } }],
  ],
};

Deno.test("every row of the table has its cases here, in table order", () => {
  assert.deepEqual(Object.keys(CASES), SECURITY_CHECKS.map((c) => c.id));
});

for (const check of SECURITY_CHECKS) {
  Deno.test(`${check.id}: each case gives its outcome, and every outcome is reached`, async () => {
    const cases = CASES[check.id] ?? [];
    for (const [expected, scenario] of cases) {
      assert.equal(await resultOf(scenario, check.id), expected, JSON.stringify(scenario));
    }
    const reached = new Set(cases.map(([result]) => result));
    assert.deepEqual([...reached].sort(), Object.keys(check.outcomes).sort());
  });
}

Deno.test("the table is consistent: unique ids, bonuses pass, failures advise", () => {
  const ids = SECURITY_CHECKS.map((c) => c.id);
  assert.equal(new Set(ids).size, ids.length);
  const outcomeIds = SECURITY_CHECKS.flatMap((c) => Object.keys(c.outcomes));
  assert.equal(new Set(outcomeIds).size, outcomeIds.length, "outcome ids are unique");
  for (const check of SECURITY_CHECKS) {
    assert.ok(check.title && check.description, check.id);
    for (const [id, outcome] of Object.entries(check.outcomes)) {
      assert.ok(Number.isInteger(outcome.modifier) && outcome.modifier % 5 === 0, id);
      if (outcome.modifier > 0) assert.ok(outcome.pass, `${id}: a bonus passes`);
      if (!outcome.pass) assert.ok(outcome.advice, `${id}: a failure says what to do`);
      assert.ok(outcome.summary.length > 10, id);
    }
  }
});

Deno.test("mixed content: each http: URL once, resolved, active first, however it is written", async () => {
  const row = async (body: string) =>
    (await audit({ html: html(body) })).checks.find((c) => c.id === "mixed-content")!;
  const written = await row(
    `<img src="HTTP://Up.example/a.png"><img src="ht\ttp://tab.example/b.png">` +
      `<img src="/own.png"><img src="//cdn.example/c.png"><img src="http://up.example/a.png">` +
      `<script src="http://x.example/s.js"></script><video poster="http:poster.png"></video>`,
  );
  assert.equal(written.result, "mixed-content-active");
  assert.deepEqual(written.evidence, [
    "http://x.example/s.js",
    "http://up.example/a.png",
    "http://tab.example/b.png",
    "http://poster.png/",
  ]);
  // Against an http: <base>, relative URLs are insecure too.
  const based = await row(`<base href="http://old.example/d/"><img src="a.png"><img src="//b/x">`);
  assert.deepEqual(based.evidence, ["http://old.example/d/a.png", "http://b/x"]);
});

Deno.test("version disclosure: the evidence names each header with its value", async () => {
  const row = (await audit({
    headers: {
      server: "Apache/2.4.41 (Ubuntu)",
      "x-powered-by": "PHP/8.1.2",
      "x-aspnet-version": "4.0.30319",
      "x-drupal-cache": "HIT",
    },
  })).checks.find((c) => c.id === "version-disclosure")!;
  assert.equal(row.pass, false);
  assert.equal(row.scoreModifier, 0, "this service's own row never moves the score");
  assert.deepEqual(row.evidence, [
    "server: Apache/2.4.41 (Ubuntu)",
    "x-powered-by: PHP/8.1.2",
    "x-aspnet-version: 4.0.30319",
  ]);
});

Deno.test("stylesheet SRI: the evidence lists the third-party stylesheets at fault", async () => {
  const row = (await audit({
    html: html(
      `<link rel="stylesheet" href="/own.css">` +
        `<link rel="stylesheet" href="//cdn.other.example/b.css">`,
    ),
  })).checks.find((c) => c.id === "subresource-integrity-stylesheets")!;
  assert.deepEqual(row.evidence, ["https://cdn.other.example/b.css"]);
});

Deno.test("CSP: a header and a <meta> are both enforced, so together they can pass", async () => {
  const row = async (s: Scenario) =>
    (await audit(s)).checks.find((c) => c.id === "content-security-policy")!;
  // Alone, each leaves scripts or plugins open; enforced together, both are restricted.
  const alone = await row(csp("script-src 'self'"));
  assert.equal(alone.result, "csp-implemented-with-unsafe-inline");
  const both = await row({
    ...csp("script-src 'self'; style-src 'self'"),
    html: html(`<meta http-equiv="Content-Security-Policy" content="object-src 'none'">`),
  });
  assert.equal(both.result, "csp-implemented-with-no-unsafe");
  assert.match(both.evidence[0], /intersection of 1 from headers and 1 from <meta/);
  // 'unsafe-inline' in one policy is void for scripts when the other does not allow inline
  // scripts; styles, which only the first restricts, keep it.
  const inline = await row({
    ...csp("default-src 'self' 'unsafe-inline'"),
    html: html(`<meta http-equiv="Content-Security-Policy" content="script-src 'self'">`),
  });
  assert.equal(inline.result, "csp-implemented-with-unsafe-inline-in-style-src-only");
  // Both allowing it keeps it.
  const kept = await row({
    ...csp("default-src 'self' 'unsafe-inline'"),
    html: html(
      `<meta http-equiv="Content-Security-Policy" content="script-src 'self' 'unsafe-inline'">`,
    ),
  });
  assert.equal(kept.result, "csp-implemented-with-unsafe-inline");
});
