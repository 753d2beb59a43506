/**
 * Rows of the security table read from single response headers: framing, MIME sniffing,
 * referrers, permissions, and cross-origin isolation (COOP, CORP).
 */
import { defineCheck, fail, pass } from "./check_definition.ts";
import { restrictsFraming } from "./csp.ts";
import { permissionsPolicyMembers } from "./permissions_policy.ts";

/** Clickjacking protection: X-Frame-Options, or CSP frame-ancestors (which supersedes it). */
export const frameOptionsCheck = defineCheck({
  id: "x-frame-options",
  title: "X-Frame-Options / frame-ancestors",
  description: "Framing by other sites is refused (CSP frame-ancestors, or X-Frame-Options)",
  outcomes: {
    "x-frame-options-implemented-via-csp": pass(
      5,
      "Framing restricted by the CSP frame-ancestors directive",
    ),
    "x-frame-options-sameorigin-or-deny": pass(
      0,
      "X-Frame-Options set to SAMEORIGIN or DENY",
      "Also set CSP frame-ancestors, which supersedes X-Frame-Options.",
    ),
    "x-frame-options-allow-from-origin": pass(
      0,
      "X-Frame-Options uses ALLOW-FROM, which current browsers ignore",
      "Use CSP frame-ancestors <origin> instead of ALLOW-FROM.",
    ),
    "x-frame-options-not-implemented": fail(
      -20,
      "Neither X-Frame-Options nor CSP frame-ancestors is set: any site may frame the page",
      "Send Content-Security-Policy: frame-ancestors 'self' (and X-Frame-Options: SAMEORIGIN).",
    ),
    "x-frame-options-header-invalid": fail(
      -20,
      "X-Frame-Options cannot be recognised",
      "Send exactly one value, DENY or SAMEORIGIN, or use CSP frame-ancestors.",
    ),
  },
  evaluate(ctx) {
    // Browsers honour frame-ancestors only from a header, never from <meta>.
    const framing = ctx.csp.header.find(restrictsFraming);
    if (framing) {
      return {
        result: "x-frame-options-implemented-via-csp",
        evidence: [`frame-ancestors ${framing.get("frame-ancestors")!.join(" ")}`.trim()],
      };
    }
    const raw = ctx.header("x-frame-options");
    if (raw === null) return "x-frame-options-not-implemented";
    const evidence = [raw.slice(0, 200)];
    const values = new Set(raw.split(",").map((v) => v.trim().toLowerCase()));
    const [value] = values;
    if (values.size === 1 && (value === "deny" || value === "sameorigin")) {
      return { result: "x-frame-options-sameorigin-or-deny", evidence };
    }
    if (values.size === 1 && value.startsWith("allow-from")) {
      return { result: "x-frame-options-allow-from-origin", evidence };
    }
    return { result: "x-frame-options-header-invalid", evidence };
  },
});

/** MIME sniffing: X-Content-Type-Options: nosniff. */
export const contentTypeOptionsCheck = defineCheck({
  id: "x-content-type-options",
  title: "X-Content-Type-Options",
  description: "X-Content-Type-Options: nosniff",
  outcomes: {
    "x-content-type-options-nosniff": pass(0, "X-Content-Type-Options set to nosniff"),
    "x-content-type-options-not-implemented": fail(
      -5,
      "X-Content-Type-Options not sent: browsers may sniff content into another type",
      "Send X-Content-Type-Options: nosniff.",
    ),
    "x-content-type-options-header-invalid": fail(
      -5,
      "X-Content-Type-Options cannot be recognised",
      "Send X-Content-Type-Options: nosniff.",
    ),
  },
  evaluate(ctx) {
    const raw = ctx.header("x-content-type-options");
    if (raw === null) return "x-content-type-options-not-implemented";
    // Browsers read the first value only (Fetch: "extract header list values").
    const first = raw.split(",")[0].trim().toLowerCase();
    return {
      result: first === "nosniff"
        ? "x-content-type-options-nosniff"
        : "x-content-type-options-header-invalid",
      evidence: [raw.slice(0, 200)],
    };
  },
});

/** Policies that keep the path and query of the page out of cross-origin requests. */
const PRIVATE_REFERRER = new Set([
  "no-referrer",
  "same-origin",
  "strict-origin",
  "strict-origin-when-cross-origin",
]);
/** Valid policies that leak more than that. */
const LEAKY_REFERRER = new Set([
  "origin",
  "origin-when-cross-origin",
  "unsafe-url",
  "no-referrer-when-downgrade",
]);

/** Referrer-Policy from the header and from `<meta name="referrer">` / `http-equiv`. */
export const referrerPolicyCheck = defineCheck({
  id: "referrer-policy",
  title: "Referrer Policy",
  description: "Referrer-Policy keeps paths and queries out of cross-origin requests",
  outcomes: {
    "referrer-policy-private": pass(
      5,
      "Referrer-Policy set to no-referrer, same-origin, strict-origin or " +
        "strict-origin-when-cross-origin",
    ),
    "referrer-policy-not-implemented": pass(
      0,
      "Referrer-Policy not set (browsers default to strict-origin-when-cross-origin)",
      "Set Referrer-Policy: strict-origin-when-cross-origin, so older browsers do the same.",
    ),
    "referrer-policy-unsafe": fail(
      -5,
      "Referrer-Policy set unsafely to origin, origin-when-cross-origin, unsafe-url or " +
        "no-referrer-when-downgrade",
      "Set Referrer-Policy: strict-origin-when-cross-origin at least.",
    ),
    "referrer-policy-header-invalid": fail(
      -5,
      "Referrer-Policy cannot be recognised",
      "Set Referrer-Policy: strict-origin-when-cross-origin at least.",
    ),
  },
  evaluate(ctx) {
    const header = ctx.header("referrer-policy");
    const values = [
      ...(header === null ? [] : [header]),
      ...ctx.httpEquiv("referrer-policy"),
      ...ctx.metaNamed("referrer"),
    ];
    if (values.length === 0) return "referrer-policy-not-implemented";
    // The last recognised token wins (meta after header), as browsers apply them.
    const tokens = values.join(",").split(",").map((t) => t.trim().toLowerCase());
    const policy = tokens.findLast((t) => PRIVATE_REFERRER.has(t) || LEAKY_REFERRER.has(t));
    const evidence = [values.join(", ").slice(0, 200)];
    if (policy && PRIVATE_REFERRER.has(policy)) {
      return { result: "referrer-policy-private", evidence };
    }
    if (policy) return { result: "referrer-policy-unsafe", evidence };
    return { result: "referrer-policy-header-invalid", evidence };
  },
});

/** Permissions-Policy (not scored by the Observatory: no bonus, a penalty only when unreadable). */
export const permissionsPolicyCheck = defineCheck({
  id: "permissions-policy",
  title: "Permissions Policy",
  description: "Permissions-Policy limits powerful features (camera, geolocation...)",
  outcomes: {
    "permissions-policy-implemented": pass(0, "Permissions-Policy set"),
    "permissions-policy-feature-policy-only": pass(
      0,
      "Only the deprecated Feature-Policy header is set",
      "Send the same rules as Permissions-Policy (structured syntax: camera=(), geolocation=()).",
    ),
    "permissions-policy-not-implemented": pass(
      0,
      "Permissions-Policy not set: features keep their default allowlists",
      "Turn off the features the site does not use, e.g. " +
        "Permissions-Policy: camera=(), microphone=(), geolocation=().",
    ),
    "permissions-policy-header-invalid": fail(
      0,
      "Permissions-Policy cannot be parsed, so browsers ignore all of it",
      "Use the structured-header syntax: feature=(allowlist), e.g. camera=(), " +
        'geolocation=(self "https://maps.example").',
    ),
  },
  evaluate(ctx) {
    const raw = ctx.header("permissions-policy");
    if (raw === null) {
      return ctx.header("feature-policy") === null
        ? "permissions-policy-not-implemented"
        : "permissions-policy-feature-policy-only";
    }
    const members = permissionsPolicyMembers(raw);
    if (members === null) {
      return { result: "permissions-policy-header-invalid", evidence: [raw.slice(0, 200)] };
    }
    return { result: "permissions-policy-implemented", evidence: members };
  },
});

/** Cross-Origin-Opener-Policy (informational in the Observatory: no score but for a bad value). */
export const openerPolicyCheck = defineCheck({
  id: "cross-origin-opener-policy",
  title: "Cross Origin Opener Policy (COOP)",
  description: "Cross-Origin-Opener-Policy isolates the page from cross-origin windows",
  outcomes: {
    "coop-implemented-with-same-origin": pass(0, "COOP same-origin: the page is isolated"),
    "coop-implemented-with-same-origin-allow-popups": pass(
      0,
      "COOP same-origin-allow-popups: isolated, but keeps its popups",
    ),
    "coop-implemented-with-noopener-allow-popups": pass(
      0,
      "COOP noopener-allow-popups: openers lose their reference to the page",
    ),
    "coop-implemented-with-unsafe-none": pass(
      0,
      "COOP unsafe-none: no isolation (the default)",
      "Use same-origin (or same-origin-allow-popups for OAuth and payment popups).",
    ),
    "coop-not-implemented": pass(
      0,
      "Cross-Origin-Opener-Policy not set: cross-origin windows may keep a reference to the page",
      "Send Cross-Origin-Opener-Policy: same-origin (or same-origin-allow-popups).",
    ),
    "coop-header-invalid": fail(
      0,
      "Cross-Origin-Opener-Policy cannot be recognised",
      "Send exactly one of same-origin, same-origin-allow-popups, noopener-allow-popups.",
    ),
  },
  evaluate(ctx) {
    const raw = ctx.header("cross-origin-opener-policy");
    if (raw === null) return "coop-not-implemented";
    const evidence = [raw.slice(0, 200)];
    // A token with optional parameters (report-to=...); a comma means it was sent twice.
    const token = raw.includes(",") ? "" : raw.split(";")[0].trim();
    const result = ({
      "same-origin": "coop-implemented-with-same-origin",
      "same-origin-allow-popups": "coop-implemented-with-same-origin-allow-popups",
      "noopener-allow-popups": "coop-implemented-with-noopener-allow-popups",
      "unsafe-none": "coop-implemented-with-unsafe-none",
    } as const)[token] ?? "coop-header-invalid";
    return { result, evidence };
  },
});

/** Cross-Origin-Resource-Policy of the response. */
export const resourcePolicyCheck = defineCheck({
  id: "cross-origin-resource-policy",
  title: "Cross Origin Resource Policy (CORP)",
  description: "Cross-Origin-Resource-Policy keeps the response out of other sites' pages",
  outcomes: {
    "corp-implemented-with-same-origin": pass(
      10,
      "CORP same-origin: the response cannot leak into cross-origin contexts",
    ),
    "corp-implemented-with-same-site": pass(
      10,
      "CORP same-site: the response cannot leak into cross-site contexts",
    ),
    "corp-implemented-with-cross-origin": pass(
      0,
      "CORP cross-origin: any site may embed the response",
    ),
    "corp-not-implemented": pass(
      0,
      "Cross-Origin-Resource-Policy not set (defaults to cross-origin)",
      "Send Cross-Origin-Resource-Policy: same-origin (or same-site) unless other sites embed it.",
    ),
    "corp-header-invalid": fail(
      -5,
      "Cross-Origin-Resource-Policy cannot be recognised",
      "Send exactly one of same-origin, same-site, cross-origin.",
    ),
  },
  evaluate(ctx) {
    const raw = ctx.header("cross-origin-resource-policy");
    if (raw === null) return "corp-not-implemented";
    const result = ({
      "same-origin": "corp-implemented-with-same-origin",
      "same-site": "corp-implemented-with-same-site",
      "cross-origin": "corp-implemented-with-cross-origin",
    } as const)[raw.trim().toLowerCase()] ?? "corp-header-invalid";
    return { result, evidence: [raw.slice(0, 200)] };
  },
});
