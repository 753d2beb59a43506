/**
 * Rows of the security table about what the page may run: CSP, and SRI on third-party scripts
 * and stylesheets.
 */
import { defineCheck, fail, pass, worst } from "./check_definition.ts";
import { quoted } from "./checks_transport.ts";
import { readPolicy } from "./csp.ts";

/** Content-Security-Policy from headers and `<meta http-equiv>`. */
export const cspCheck = defineCheck({
  id: "content-security-policy",
  title: "Content Security Policy (CSP)",
  description: "A CSP that restricts scripts and plugins without 'unsafe-inline' or 'unsafe-eval'",
  outcomes: {
    "csp-implemented-with-no-unsafe-default-src-none": pass(
      10,
      "CSP implemented with default-src 'none' and nothing unsafe",
    ),
    "csp-implemented-with-no-unsafe": pass(
      5,
      "CSP implemented without 'unsafe-inline' or 'unsafe-eval'",
      "Set default-src to 'none' and allow each resource type explicitly.",
    ),
    "csp-implemented-with-unsafe-inline-in-style-src-only": pass(
      0,
      "CSP implemented, with unsafe sources ('unsafe-inline', data: or broad ones) in style-src only",
      "Lock down style-src: remove 'unsafe-inline', data: and broad sources.",
    ),
    "csp-implemented-with-insecure-scheme-in-passive-content-only": pass(
      -10,
      "CSP implemented, but the HTTPS page allows images or media over HTTP",
      "Allow only https: sources in img-src and media-src (or default-src).",
    ),
    "csp-implemented-with-unsafe-eval": fail(
      -10,
      "CSP implemented, but allows 'unsafe-eval'",
      "Remove the uses of eval() and then 'unsafe-eval' from the policy.",
    ),
    "csp-implemented-with-unsafe-inline": fail(
      -20,
      "CSP implemented unsafely: inline or broad script or plugin sources, or none restricted",
      "Remove 'unsafe-inline' and data: from script-src (use nonces or hashes), remove broad " +
        "sources from script-src and object-src, and make sure both are set.",
    ),
    "csp-implemented-with-insecure-scheme": fail(
      -20,
      "CSP implemented, but the HTTPS page allows resources over HTTP",
      "Remove http: sources from the policy and load everything over HTTPS.",
    ),
    "csp-header-invalid": fail(
      -25,
      "Content-Security-Policy cannot be parsed",
      "Fix the syntax (one policy per header, each directive once); check it with the CSP " +
        "Evaluator (csp-evaluator.withgoogle.com).",
    ),
    "csp-not-implemented-but-reporting-enabled": fail(
      -25,
      "Only Content-Security-Policy-Report-Only is sent: violations are reported, not blocked",
      "Once the reports are clean, send the policy as Content-Security-Policy.",
    ),
    "csp-not-implemented": fail(
      -25,
      "Content-Security-Policy not implemented",
      "Add a Content-Security-Policy, starting from default-src 'self'; object-src 'none'.",
    ),
  },
  evaluate(ctx) {
    const { header, meta, invalid, reportOnly, effective } = ctx.csp;
    if (invalid.length) return { result: "csp-header-invalid", evidence: quoted(invalid) };
    if (!effective) {
      return reportOnly ? "csp-not-implemented-but-reporting-enabled" : "csp-not-implemented";
    }
    // Every policy is enforced: a load must pass each, so what the page can do is what their
    // intersection allows (a header and a <meta> together are stricter than either alone).
    const reading = readPolicy(effective, ctx.https);
    const where = header.length + meta.length > 1
      ? [
        `effective policy: the intersection of ${header.length} from headers and ` +
        `${meta.length} from <meta http-equiv>`,
      ]
      : meta.length
      ? ["1 policy from <meta http-equiv>"]
      : [];
    return { result: reading.result, evidence: [...where, ...reading.evidence] };
  },
});

/** What the SRI row can conclude. */
const sriOutcomes = {
  "sri-implemented-and-all-scripts-loaded-securely": pass(
    5,
    "SRI implemented, and every script is loaded from the page's own site over HTTPS",
  ),
  "sri-implemented-and-external-scripts-loaded-securely": pass(
    5,
    "SRI implemented, and every third-party script is loaded over HTTPS",
  ),
  "sri-not-implemented-response-not-html": pass(0, "Not an HTML page: SRI does not apply"),
  "sri-not-implemented-but-no-scripts-loaded": pass(0, "No script is loaded from a URL"),
  "sri-not-implemented-but-all-scripts-loaded-from-secure-origin": pass(
    0,
    "SRI not implemented, but every script comes from the page's own site",
    "Add integrity attributes for bonus points.",
  ),
  "sri-not-implemented-but-external-scripts-loaded-securely": fail(
    -5,
    "Third-party scripts are loaded over HTTPS without SRI",
    "Add integrity (and crossorigin) attributes to third-party scripts.",
  ),
  "sri-implemented-but-external-scripts-not-loaded-securely": fail(
    -20,
    "SRI implemented, but third-party scripts are loaded over HTTP",
    "Load third-party scripts over HTTPS.",
  ),
  "sri-not-implemented-and-external-scripts-not-loaded-securely": fail(
    -50,
    "Third-party scripts are loaded over HTTP without SRI",
    "Load third-party scripts over HTTPS and add integrity attributes to them.",
  ),
};

/** Subresource Integrity on scripts from other sites. */
export const sriCheck = defineCheck({
  id: "subresource-integrity",
  title: "Subresource Integrity (SRI)",
  description: "Third-party scripts carry an integrity hash and load over HTTPS",
  outcomes: sriOutcomes,
  evaluate(ctx) {
    if (!ctx.page) return "sri-not-implemented-response-not-html";
    if (ctx.scripts.length === 0) return "sri-not-implemented-but-no-scripts-loaded";
    const found: (keyof typeof sriOutcomes)[] = [];
    const evidence: string[] = [];
    let thirdParty = false;
    let ownWithSri = false;
    for (const script of ctx.scripts) {
      const secure = script.url.protocol === "https:";
      if (!script.thirdParty) {
        ownWithSri ||= secure && script.integrity !== null;
        continue;
      }
      thirdParty = true;
      if (script.integrity && secure) continue;
      found.push(
        script.integrity
          ? "sri-implemented-but-external-scripts-not-loaded-securely"
          : secure
          ? "sri-not-implemented-but-external-scripts-loaded-securely"
          : "sri-not-implemented-and-external-scripts-not-loaded-securely",
      );
      evidence.push(script.url.href);
    }
    const problem = worst(sriOutcomes, found);
    if (problem) return { result: problem, evidence: quoted(evidence) };
    if (thirdParty) return "sri-implemented-and-external-scripts-loaded-securely";
    return ownWithSri
      ? "sri-implemented-and-all-scripts-loaded-securely"
      : "sri-not-implemented-but-all-scripts-loaded-from-secure-origin";
  },
});

/** What the stylesheet SRI row can conclude (this service's own row: it never moves the score). */
const sriStyleOutcomes = {
  "sri-stylesheets-implemented": pass(
    0,
    "Every third-party stylesheet carries an integrity hash and loads over HTTPS",
  ),
  "sri-stylesheets-not-html": pass(0, "Not an HTML page: SRI does not apply"),
  "sri-stylesheets-none-loaded": pass(0, "No stylesheet is loaded from a URL"),
  "sri-stylesheets-first-party-only": pass(
    0,
    "Every stylesheet comes from the page's own site",
  ),
  "sri-stylesheets-not-implemented": fail(
    0,
    "Third-party stylesheets are loaded without SRI",
    "Add integrity (and crossorigin) attributes to third-party stylesheets: a stylesheet can " +
      "exfiltrate data through selectors and background URLs.",
  ),
  "sri-stylesheets-not-loaded-securely": fail(
    0,
    "Third-party stylesheets are loaded over HTTP",
    "Load third-party stylesheets over HTTPS, with integrity attributes.",
  ),
};

/** Subresource Integrity on stylesheets from other sites, as the SRI row does for scripts. */
export const sriStylesheetCheck = defineCheck({
  id: "subresource-integrity-stylesheets",
  title: "Subresource Integrity on stylesheets",
  description: "Third-party stylesheets carry an integrity hash and load over HTTPS",
  outcomes: sriStyleOutcomes,
  evaluate(ctx) {
    if (!ctx.page) return "sri-stylesheets-not-html";
    if (ctx.stylesheets.length === 0) return "sri-stylesheets-none-loaded";
    const found: (keyof typeof sriStyleOutcomes)[] = [];
    const evidence: string[] = [];
    const thirdParty = ctx.stylesheets.filter((s) => s.thirdParty);
    for (const sheet of thirdParty) {
      const secure = sheet.url.protocol === "https:";
      if (sheet.integrity && secure) continue;
      found.push(
        secure ? "sri-stylesheets-not-implemented" : "sri-stylesheets-not-loaded-securely",
      );
      evidence.push(sheet.url.href);
    }
    // Every outcome weighs 0: over HTTP is the worse of the two.
    const problem = found.includes("sri-stylesheets-not-loaded-securely")
      ? "sri-stylesheets-not-loaded-securely"
      : found[0];
    if (problem) return { result: problem, evidence: quoted(evidence) };
    return thirdParty.length > 0
      ? "sri-stylesheets-implemented"
      : "sri-stylesheets-first-party-only";
  },
});
